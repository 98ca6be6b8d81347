"""The Python kubernetes client (Debian's python3-kubernetes) against a kubesim cluster, run
by test/clients/every-kind.test.ts: for each object of OBJECTS_JSON, in order, its dynamic
client discovers the object's resource, then creates, gets, lists by label, merge-patches and
replaces the object; at the end it deletes them all, last created first.

Usage: every_kind.py KUBECONFIG OBJECTS_JSON CACHE_DIR
Prints one JSON object: {"apiVersion/Kind": {"create": true, ..., "delete": true}}, with the
error text in place of true for a step that failed.
"""
import json
import os
import sys

from kubernetes import config
from kubernetes.dynamic import DynamicClient
from kubernetes.dynamic.exceptions import NotFoundError

MERGE = "application/merge-patch+json"


def step(results, key, name, action):
    try:
        action()
        results[key][name] = True
    except Exception as error:  # noqa: BLE001 - every failure is reported, not raised
        results[key][name] = f"{type(error).__name__}: {error}"


def crud(dyn, obj, results, created):
    key = f"{obj['apiVersion']}/{obj['kind']}"
    name = obj["metadata"]["name"]
    namespace = obj["metadata"].get("namespace")
    results[key] = {}
    found = {}

    def discover():
        found["resource"] = dyn.resources.get(api_version=obj["apiVersion"], kind=obj["kind"])

    step(results, key, "discover", discover)
    resource = found.get("resource")
    if resource is None:
        return

    def create():
        resource.create(body=obj, namespace=namespace)
        created.insert(0, (key, resource, name, namespace))

    def get():
        got = resource.get(name=name, namespace=namespace)
        assert got.metadata.name == name, got.metadata.name

    def list_by_label():
        listed = resource.get(namespace=namespace, label_selector="app=bundle")
        assert name in [item.metadata.name for item in listed.items], f"{name} not listed"

    def patch():
        body = {"metadata": {"labels": {"crud": "python"}}}
        patched = resource.patch(body=body, name=name, namespace=namespace, content_type=MERGE)
        assert patched.metadata.labels["crud"] == "python"

    def replace():
        current = resource.get(name=name, namespace=namespace).to_dict()
        annotations = current["metadata"].get("annotations") or {}
        current["metadata"]["annotations"] = {**annotations, "example.com/updated-by": "python"}
        updated = resource.replace(body=current, name=name, namespace=namespace)
        assert updated.metadata.annotations["example.com/updated-by"] == "python"

    for step_name, action in [("create", create), ("get", get), ("list", list_by_label),
                              ("patch", patch), ("update", replace)]:
        step(results, key, step_name, action)


def delete(key, resource, name, namespace, results):
    def action():
        resource.delete(name=name, namespace=namespace)
        try:
            left = resource.get(name=name, namespace=namespace)
        except NotFoundError:
            return
        # Still there only while finalizers run (a Namespace without its controller).
        assert left.metadata.deletionTimestamp, "still there, not terminating"

    step(results, key, "delete", action)


def main():
    kubeconfig, objects_json, cache_dir = sys.argv[1:4]
    api_client = config.new_client_from_config(config_file=kubeconfig)
    dyn = DynamicClient(api_client, cache_file=os.path.join(cache_dir, "python-discovery.json"))
    with open(objects_json, encoding="utf-8") as file:
        objects = json.load(file)
    results, created = {}, []
    for obj in objects:
        crud(dyn, obj, results, created)
    for key, resource, name, namespace in created:
        delete(key, resource, name, namespace, results)
    print(json.dumps(results))


main()
