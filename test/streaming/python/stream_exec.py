"""The Python client's kubernetes.stream against kubesim's exec and port-forward endpoints.

Usage: stream_exec.py KUBECONFIG. Prints one JSON object with what each call returned.
"""
import json
import sys

from kubernetes import client, config
from kubernetes.client.rest import ApiException
from kubernetes.stream import portforward, stream


def main():
    config.load_kube_config(config_file=sys.argv[1])
    core = client.CoreV1Api()
    exec_pod = core.connect_get_namespaced_pod_exec
    result = {}
    # Preloaded: the call returns the output once the command ended.
    result["echo"] = stream(exec_pod, "web", "default", command=["echo", "from", "python"], stderr=True, stdin=False, stdout=True, tty=False)

    # Streamed: stdin written, closed, then the exit code read from the error channel.
    resp = stream(exec_pod, "web", "default", command=["exit", "3"], stderr=True, stdin=False, stdout=True, tty=False, _preload_content=False)
    resp.run_forever(timeout=10)
    result["exitCode"] = resp.returncode

    try:
        stream(exec_pod, "web", "default", command=["echo"], container="ghost", stderr=True, stdin=False, stdout=True, tty=False)
        result["ghost"] = "no error"
    except ApiException as err:
        # The client reports a refused handshake by its HTTP status line only.
        result["ghost"] = err.reason

    forward = portforward(core.connect_get_namespaced_pod_portforward, "web", "default", ports="8080")
    sock = forward.socket(8080)
    sock.setblocking(True)
    sock.sendall(b"ping from python")
    received = b""
    while len(received) < len(b"ping from python"):
        received += sock.recv(1024)
    result["portForward"] = received.decode()
    sock.close()
    forward.close()
    print(json.dumps(result))


main()
