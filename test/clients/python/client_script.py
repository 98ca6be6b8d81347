"""A small script using the Python kubernetes client (Debian's python3-kubernetes 22.6)
against a kubesim cluster, run by test/clients/python-client.test.ts.

Usage: client_script.py KUBECONFIG CACHE_DIR

It creates a ConfigMap and a Deployment, patches them the client's default way (a dict
body is sent as a strategic merge patch, a list body as a JSON patch), scales through
patch_namespaced_deployment_scale, applies server-side where the client can, and watches
with resume from the last resourceVersion and through a 410 Expired.

Protocol: one JSON object per stdout line. {"await": "compact", ...} asks the test to
compact the cluster's history and answer with a line on stdin; the last line is
{"result": {...}} (or {"error": "..."} with exit status 1).
"""
import json
import sys
import traceback

import kubernetes
from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException
from kubernetes.dynamic import DynamicClient

NS = "default"
LABEL = "suite=py-watch"


def emit(obj):
    print(json.dumps(obj), flush=True)


def watched(name):
    return client.V1ConfigMap(
        metadata=client.V1ObjectMeta(name=name, labels={"suite": "py-watch"}),
        data={"n": name},
    )


def web_deployment():
    container = client.V1Container(
        name="nginx", image="nginx:1.25", ports=[client.V1ContainerPort(container_port=80)]
    )
    return client.V1Deployment(
        metadata=client.V1ObjectMeta(name="py-web", labels={"app": "py-web"}),
        spec=client.V1DeploymentSpec(
            replicas=2,
            selector=client.V1LabelSelector(match_labels={"app": "py-web"}),
            template=client.V1PodTemplateSpec(
                metadata=client.V1ObjectMeta(labels={"app": "py-web"}),
                spec=client.V1PodSpec(containers=[container]),
            ),
        ),
    )


def create_and_patch(core, apps):
    cm = core.create_namespaced_config_map(
        NS, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="py-cm"), data={"color": "blue"})
    )
    dep = apps.create_namespaced_deployment(NS, web_deployment())
    # A dict body: the client sends application/strategic-merge-patch+json.
    cm = core.patch_namespaced_config_map("py-cm", NS, {"data": {"size": "M"}})
    env = {"name": "MODE", "value": "demo"}
    patch = {"spec": {"template": {"spec": {"containers": [{"name": "nginx", "env": [env]}]}}}}
    smp = apps.patch_namespaced_deployment("py-web", NS, patch)
    # A list body: the client sends application/json-patch+json.
    ops = [{"op": "replace", "path": "/spec/replicas", "value": 3}]
    jsonpatch = apps.patch_namespaced_deployment("py-web", NS, ops)
    scale = apps.patch_namespaced_deployment_scale("py-web", NS, {"spec": {"replicas": 4}})
    final = apps.read_namespaced_deployment("py-web", NS)
    containers = smp.spec.template.spec.containers
    return {
        "configmap": {"uid": bool(cm.metadata.uid), "data": cm.data},
        "deployment": {"uid": bool(dep.metadata.uid), "generation": dep.metadata.generation,
                       "strategy": dep.spec.strategy.type},
        "strategic": [[c.name, c.image, [e.value for e in (c.env or [])]] for c in containers],
        "jsonPatchReplicas": jsonpatch.spec.replicas,
        "scale": {"kind": scale.kind, "replicas": scale.spec.replicas, "selector": scale.status.selector},
        "final": {"replicas": final.spec.replicas, "generation": final.metadata.generation},
    }


def server_side_apply(api_client, core, cache_file):
    out = {}
    # The typed API of 22.6 picks the patch Content-Type from the body's Python type only.
    try:
        core.patch_namespaced_config_map("py-ssa", NS, {}, _content_type="application/apply-patch+yaml")
        out["typedApi"] = True
    except TypeError as err:
        out["typedApi"] = str(err)
    # The dynamic client has server_side_apply (body as serialised JSON).
    configmaps = DynamicClient(api_client, cache_file=cache_file).resources.get(api_version="v1", kind="ConfigMap")

    def apply(data):
        manifest = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "py-ssa"}, "data": data}
        return configmaps.server_side_apply(
            body=json.dumps(manifest).encode(), name="py-ssa", namespace=NS, field_manager="python-script"
        )

    first = apply({"a": "1"})
    second = apply({"a": "1", "b": "2"})
    third = apply({"b": "2"})
    out["dynamic"] = {"created": dict(first.data), "updated": dict(second.data), "removed": dict(third.data),
                      "sameObject": first.metadata.uid == second.metadata.uid,
                      "managers": [[f.manager, f.operation] for f in second.metadata.managedFields or []]}
    return out


def event_row(event):
    meta = event["object"].metadata
    return [event["type"], meta.name, meta.resource_version]


def watch_with_resume(core):
    out = {}
    rv0 = core.list_namespaced_config_map(NS, label_selector=LABEL).metadata.resource_version
    core.create_namespaced_config_map(NS, watched("w1"))
    core.patch_namespaced_config_map("w1", NS, {"data": {"changed": "yes"}})
    core.create_namespaced_config_map(NS, watched("w2"))
    first = []
    w = watch.Watch()
    kwargs = {"label_selector": LABEL, "allow_watch_bookmarks": True, "timeout_seconds": 20}
    for event in w.stream(core.list_namespaced_config_map, NS, resource_version=rv0, **kwargs):
        if event["type"] == "BOOKMARK":
            continue
        first.append(event_row(event))
        if len(first) == 3:
            w.stop()
    out["listRv"] = rv0
    out["first"] = first
    last_rv = first[-1][2] if first else rv0
    out["watcherRv"] = w.resource_version

    # Changes nobody watches, then a resume from the last resourceVersion seen.
    core.delete_namespaced_config_map("w1", NS)
    core.create_namespaced_config_map(NS, watched("w3"))
    core.patch_namespaced_config_map("w2", NS, {"data": {"changed": "yes"}})
    resumed = []
    w = watch.Watch()
    for event in w.stream(core.list_namespaced_config_map, NS, resource_version=last_rv, **kwargs):
        if event["type"] == "BOOKMARK":
            continue
        resumed.append(event_row(event))
        if len(resumed) == 3:
            # A change after the missed ones marks their end.
            core.create_namespaced_config_map(NS, watched("w4"))
        if resumed[-1][1] == "w4":
            w.stop()
    out["resumed"] = resumed
    return out


def watch_expired(core):
    out = {}
    stale = core.list_namespaced_config_map(NS, label_selector=LABEL).metadata.resource_version
    core.create_namespaced_config_map(NS, watched("w5"))
    emit({"await": "compact", "rv": stale})
    sys.stdin.readline()
    events = []
    try:
        # No timeout_seconds: the client retries once after a 410, then raises.
        for event in watch.Watch().stream(core.list_namespaced_config_map, NS, label_selector=LABEL, resource_version=stale):
            events.append(event["type"])
        out["expired"] = {"events": events}
    except ApiException as err:
        out["expired"] = {"status": err.status, "reason": err.reason, "events": events}
    # Recovery: list again and watch from the list's resourceVersion.
    listed = core.list_namespaced_config_map(NS, label_selector=LABEL)
    out["relisted"] = sorted(item.metadata.name for item in listed.items)
    core.create_namespaced_config_map(NS, watched("w6"))
    w = watch.Watch()
    after = []
    for event in w.stream(core.list_namespaced_config_map, NS, label_selector=LABEL,
                          resource_version=listed.metadata.resource_version, timeout_seconds=20):
        after.append(event_row(event)[:2])
        w.stop()
    out["afterRelist"] = after
    return out


def main():
    kubeconfig, cache_dir = sys.argv[1], sys.argv[2]
    config.load_kube_config(config_file=kubeconfig)
    api_client = client.ApiClient()
    core = client.CoreV1Api(api_client)
    apps = client.AppsV1Api(api_client)
    result = {"version": kubernetes.__version__}
    result.update(create_and_patch(core, apps))
    result["serverSideApply"] = server_side_apply(api_client, core, cache_dir + "/discovery.json")
    result["watch"] = watch_with_resume(core)
    result["watch"].update(watch_expired(core))
    emit({"result": result})


if __name__ == "__main__":
    try:
        main()
    except Exception:  # report anything to the test, which prints it
        emit({"error": traceback.format_exc()})
        sys.exit(1)
