"""kubesim as the cluster of a Python integration test (plain unittest + the kubernetes client).

Start a cluster, then run the tests against it:

    kubesim up --kubeconfig .kubesim/kubeconfig --nodes 1 &
    KUBECONFIG=.kubesim/kubeconfig python3 -m unittest -v examples/python/test_kubesim.py

Besides the Kubernetes API, the tests use kubesim's control API (not a Kubernetes API group):
    POST /apis/kubesim.io/v1alpha1/settle  waits until every loop is idle and nothing is being
        written: 200 {elapsedMs, revision}, or 504 naming what was still busy. It replaces
        polling: once it returns, everything a change set in motion has happened.
    POST /apis/kubesim.io/v1alpha1/reset   brings the cluster back to its just-started state.
"""

import json
import os
import unittest

from kubernetes import client, config
from kubernetes.client.rest import ApiException

NAMESPACE = "default"
KUBESIM_API = "/apis/kubesim.io/v1alpha1"


def kubesim(api_client, action, body=None):
    """POSTs to kubesim's control API through the client's own connection and credentials.
    Raises ApiException for an error status (504 when the cluster did not settle)."""
    response = api_client.call_api(
        f"{KUBESIM_API}/{action}",
        "POST",
        header_params={"Content-Type": "application/json", "Accept": "application/json"},
        body=body or {},
        auth_settings=["BearerToken"],
        _preload_content=False,
        _return_http_data_only=True,
    )
    return json.loads(response.data)


def deployment(name, replicas):
    labels = {"app": name}
    return client.V1Deployment(
        metadata=client.V1ObjectMeta(name=name, labels=labels),
        spec=client.V1DeploymentSpec(
            replicas=replicas,
            selector=client.V1LabelSelector(match_labels=labels),
            template=client.V1PodTemplateSpec(
                metadata=client.V1ObjectMeta(labels=labels),
                spec=client.V1PodSpec(containers=[client.V1Container(name="web", image="nginx:1.27")]),
            ),
        ),
    )


class KubesimTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        config.load_kube_config(config_file=os.environ["KUBECONFIG"])
        cls.api_client = client.ApiClient()
        cls.apps = client.AppsV1Api(cls.api_client)
        cls.core = client.CoreV1Api(cls.api_client)

    @classmethod
    def tearDownClass(cls):
        cls.api_client.close()

    def setUp(self):
        # Every test starts from the just-started cluster, whatever the one before left behind.
        kubesim(self.api_client, "reset")

    def pods(self, app):
        return self.core.list_namespaced_pod(NAMESPACE, label_selector=f"app={app}").items

    def test_deployment_pods_run_once_the_cluster_settles(self):
        self.apps.create_namespaced_deployment(NAMESPACE, deployment("py-web", 2))
        settled = kubesim(self.api_client, "settle", {"timeoutMs": 20000})
        self.assertGreater(settled["revision"], 0)
        self.assertIn("elapsedMs", settled)
        pods = self.pods("py-web")
        self.assertEqual([pod.status.phase for pod in pods], ["Running", "Running"])
        self.assertTrue(all(pod.spec.node_name for pod in pods))
        status = self.apps.read_namespaced_deployment_status("py-web", NAMESPACE).status
        self.assertEqual(status.ready_replicas, 2)

    def test_reset_removes_what_a_test_created(self):
        self.apps.create_namespaced_deployment(NAMESPACE, deployment("py-temp", 1))
        kubesim(self.api_client, "settle")
        self.assertEqual(len(self.pods("py-temp")), 1)
        result = kubesim(self.api_client, "reset")
        self.assertGreater(result["deleted"], 0)
        with self.assertRaises(ApiException) as missing:
            self.apps.read_namespaced_deployment("py-temp", NAMESPACE)
        self.assertEqual(missing.exception.status, 404)
        self.assertEqual(self.pods("py-temp"), [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
