"""The Kubernetes manifests in k8s/: schema-valid, and consistent with how dicelog runs.

Every YAML document in k8s/*.yaml (kustomization.yaml aside) is validated offline against the
Kubernetes JSON schemas shipped by ``kubernetes-validate`` (strict: unknown fields are errors).
On top of the schema, the tests check what a schema cannot: the API's probes, resources on every
container, that every ``DICELOG_*`` variable comes from the ConfigMap or the Secret, and that the
worker runs ``dicelog worker``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

import kubernetes_validate
import pytest
import yaml

K8S_DIR = Path(__file__).resolve().parents[2] / "k8s"
KUBERNETES_VERSION = "1.37.0"
NAMESPACE = "dicelog"
IMAGE = "dicelog:0.1.0"

MANIFEST_FILES = sorted(p for p in K8S_DIR.glob("*.yaml") if p.name != "kustomization.yaml")

# What the API and the worker must both receive (DESIGN.md, Runtime: configuration by env only).
REQUIRED_ENV = {
    "DICELOG_STORE",
    "DICELOG_POSTGRES_HOST",
    "DICELOG_POSTGRES_PORT",
    "DICELOG_POSTGRES_DBNAME",
    "DICELOG_POSTGRES_USER",
    "DICELOG_POSTGRES_PASSWORD",
    "DICELOG_REDIS_URL",
    "DICELOG_SNAPSHOT_INTERVAL",
    "DICELOG_LOG_LEVEL",
    "DICELOG_EMBEDDED_WORKER",
}
SECRET_ENV = {"DICELOG_POSTGRES_PASSWORD"}
WORKLOAD_KINDS = {"Deployment", "StatefulSet", "DaemonSet", "Job"}


Doc = tuple[str, int, dict[str, Any]]  # (file name, index of the document in the file, document)


def load_file(path: Path) -> list[Doc]:
    with path.open() as f:
        docs = list(yaml.safe_load_all(f))
    return [(path.name, i, doc) for i, doc in enumerate(docs) if doc is not None]


def all_docs() -> list[Doc]:
    return [d for path in MANIFEST_FILES for d in load_file(path)]


def label(doc: Doc) -> str:
    name, i, data = doc
    meta = (data.get("metadata") or {}) if isinstance(data, dict) else {}
    kind = data.get("kind", "?") if isinstance(data, dict) else type(data).__name__
    return f"{name} document {i} ({kind}/{meta.get('name', '?')})"


def find(docs: list[Doc], kind: str, name: str) -> dict[str, Any]:
    hits = [d for _, _, d in docs if d.get("kind") == kind and d["metadata"].get("name") == name]
    assert len(hits) == 1, f"expected exactly one {kind}/{name} in k8s/*.yaml, found {len(hits)}"
    return hits[0]


def containers(workload: dict[str, Any]) -> list[dict[str, Any]]:
    pod = workload["spec"]["template"]["spec"]
    return list(pod.get("initContainers", [])) + list(pod["containers"])


def workloads(docs: list[Doc]) -> Iterator[tuple[Doc, dict[str, Any]]]:
    for doc in docs:
        if doc[2].get("kind") in WORKLOAD_KINDS:
            yield doc, doc[2]


def only_container(workload: dict[str, Any]) -> dict[str, Any]:
    cs = workload["spec"]["template"]["spec"]["containers"]
    assert len(cs) == 1, f"{workload['metadata']['name']}: expected one container, found {len(cs)}"
    return cs[0]


def config_keys(docs: list[Doc], kind: str, name: str) -> set[str]:
    obj = find(docs, kind, name)
    keys = set(obj.get("data") or {})
    if kind == "Secret":
        keys |= set(obj.get("stringData") or {})
    return keys


def effective_env(docs: list[Doc], container: dict[str, Any]) -> dict[str, str]:
    """Variable name -> where it comes from ('ConfigMap/x', 'Secret/y' or 'literal')."""
    env: dict[str, str] = {}
    for source in container.get("envFrom", []):
        prefix = source.get("prefix", "")
        for kind, ref in (("ConfigMap", "configMapRef"), ("Secret", "secretRef")):
            if ref in source:
                name = source[ref]["name"]
                for key in config_keys(docs, kind, name):
                    env[prefix + key] = f"{kind}/{name}"
    for var in container.get("env", []):
        value_from = var.get("valueFrom") or {}
        if "configMapKeyRef" in value_from:
            env[var["name"]] = f"ConfigMap/{value_from['configMapKeyRef']['name']}"
        elif "secretKeyRef" in value_from:
            env[var["name"]] = f"Secret/{value_from['secretKeyRef']['name']}"
        else:
            env[var["name"]] = "literal"
    return env


# --------------------------------------------------------------------------- schema validation


def test_manifests_exist() -> None:
    assert MANIFEST_FILES, f"no manifests in {K8S_DIR}"
    kinds = {d.get("kind") for _, _, d in all_docs()}
    assert {"Namespace", "ConfigMap", "Secret", "Deployment", "StatefulSet", "Service"} <= kinds


@pytest.mark.parametrize("path", MANIFEST_FILES, ids=lambda p: p.name)
def test_documents_validate_against_kubernetes_schema(path: Path) -> None:
    try:
        docs = load_file(path)
    except yaml.YAMLError as e:
        pytest.fail(f"{path.name}: not valid YAML: {e}")
    assert docs, f"{path.name}: no YAML documents"
    errors = []
    for doc in docs:
        data = doc[2]
        if not isinstance(data, dict) or not {"apiVersion", "kind", "metadata"} <= data.keys():
            errors.append(f"{label(doc)}: needs apiVersion, kind and metadata")
            continue
        try:
            kubernetes_validate.validate(data, KUBERNETES_VERSION, strict=True)
        except kubernetes_validate.ValidationError as e:
            where = ".".join(str(p) for p in e.path) or "<root>"
            errors.append(f"{label(doc)}: invalid for Kubernetes {e.version} at {where}: {e.message}")
        except kubernetes_validate.SchemaNotFoundError as e:
            errors.append(f"{label(doc)}: {e.message}")
    assert not errors, "\n".join(errors)


def test_objects_are_named_and_namespaced() -> None:
    seen: dict[tuple[str, str], str] = {}
    for doc in all_docs():
        data = doc[2]
        meta = data["metadata"]
        key = (data["kind"], meta["name"])
        assert key not in seen, f"{label(doc)}: duplicate of {seen[key]}"
        seen[key] = label(doc)
        if data["kind"] != "Namespace":
            assert meta.get("namespace") == NAMESPACE, f"{label(doc)}: namespace must be {NAMESPACE!r}"


def test_kustomization_lists_every_manifest() -> None:
    kustomization = yaml.safe_load((K8S_DIR / "kustomization.yaml").read_text())
    assert sorted(kustomization["resources"]) == sorted(p.name for p in MANIFEST_FILES)
    assert kustomization.get("namespace") == NAMESPACE


# --------------------------------------------------------------------------- workloads


def test_api_deployment_probes_and_command() -> None:
    docs = all_docs()
    api = find(docs, "Deployment", "dicelog-api")
    assert api["spec"]["replicas"] == 2
    c = only_container(api)
    assert c["image"] == IMAGE
    assert c.get("command", []) + c.get("args", []) == [
        "dicelog", "serve", "--host", "0.0.0.0", "--port", "8000",
    ]
    ports = {p.get("name"): p["containerPort"] for p in c["ports"]}
    assert 8000 in ports.values()

    def probe_target(probe_name: str) -> tuple[str, int]:
        probe = c.get(probe_name)
        assert probe and "httpGet" in probe, f"dicelog-api: {probe_name} must be an httpGet probe"
        port = probe["httpGet"]["port"]
        return probe["httpGet"]["path"], ports[port] if isinstance(port, str) else port

    assert probe_target("readinessProbe") == ("/ready", 8000)
    assert probe_target("livenessProbe") == ("/health", 8000)
    assert probe_target("startupProbe")[1] == 8000


def test_worker_runs_dicelog_worker() -> None:
    worker = find(all_docs(), "Deployment", "dicelog-worker")
    assert worker["spec"]["replicas"] == 1
    assert worker["spec"].get("strategy", {}).get("type") == "Recreate", "two workers must never overlap"
    c = only_container(worker)
    assert c["image"] == IMAGE
    assert " ".join(c.get("command", []) + c.get("args", [])) == "dicelog worker"


def test_every_container_has_resource_requests_and_limits() -> None:
    missing = []
    for doc, workload in workloads(all_docs()):
        for c in containers(workload):
            res = c.get("resources") or {}
            for part in ("requests", "limits"):
                for resource in ("cpu", "memory"):
                    if resource not in (res.get(part) or {}):
                        missing.append(f"{label(doc)} container {c['name']}: no {part}.{resource}")
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize("name", ["dicelog-api", "dicelog-worker"])
def test_dicelog_containers_are_locked_down(name: str) -> None:
    workload = find(all_docs(), "Deployment", name)
    pod = workload["spec"]["template"]["spec"]
    c = only_container(workload)
    run_as_non_root = (c.get("securityContext") or {}).get(
        "runAsNonRoot", (pod.get("securityContext") or {}).get("runAsNonRoot")
    )
    assert run_as_non_root is True, f"{name}: runAsNonRoot"
    assert c["securityContext"].get("readOnlyRootFilesystem") is True, f"{name}: readOnlyRootFilesystem"
    tmp = [m for m in c.get("volumeMounts", []) if m["mountPath"] == "/tmp"]
    assert tmp, f"{name}: /tmp must be a writable volume"
    volumes = {v["name"]: v for v in pod.get("volumes", [])}
    assert "emptyDir" in volumes[tmp[0]["name"]], f"{name}: /tmp must be an emptyDir"


def test_backing_services() -> None:
    docs = all_docs()
    postgres = find(docs, "StatefulSet", "postgres")
    assert only_container(postgres)["image"] == "postgres:16"
    assert postgres["spec"].get("volumeClaimTemplates"), "postgres needs a volumeClaimTemplate"
    assert only_container(find(docs, "StatefulSet", "redis"))["image"] == "redis:7"
    find(docs, "Service", "postgres")
    find(docs, "Service", "redis")


def test_services_and_workload_selectors_match_pods() -> None:
    docs = all_docs()
    pod_labels = []
    for doc, workload in workloads(docs):
        labels = workload["spec"]["template"]["metadata"]["labels"]
        selector = workload["spec"]["selector"]["matchLabels"]
        assert selector.items() <= labels.items(), f"{label(doc)}: selector does not match its pods"
        pod_labels.append(labels)
    for doc in docs:
        if doc[2]["kind"] in ("Service", "PodDisruptionBudget"):
            spec = doc[2]["spec"]
            selector = spec["selector"].get("matchLabels", spec["selector"])
            assert any(selector.items() <= labels.items() for labels in pod_labels), (
                f"{label(doc)}: selector {selector} matches no pod template"
            )


# --------------------------------------------------------------------------- configuration


def test_every_referenced_config_key_exists() -> None:
    """configMapKeyRef/secretKeyRef/envFrom in any container point at objects and keys that exist."""
    docs = all_docs()
    errors = []
    for doc, workload in workloads(docs):
        for c in containers(workload):
            where = f"{label(doc)} container {c['name']}"
            for source in c.get("envFrom", []):
                for kind, ref in (("ConfigMap", "configMapRef"), ("Secret", "secretRef")):
                    if ref in source:
                        name = source[ref]["name"]
                        if not any(d["kind"] == kind and d["metadata"]["name"] == name for _, _, d in docs):
                            errors.append(f"{where}: envFrom {kind}/{name} does not exist")
            for var in c.get("env", []):
                value_from = var.get("valueFrom") or {}
                for kind, ref in (("ConfigMap", "configMapKeyRef"), ("Secret", "secretKeyRef")):
                    if ref in value_from:
                        name, key = value_from[ref]["name"], value_from[ref]["key"]
                        try:
                            keys = config_keys(docs, kind, name)
                        except AssertionError:
                            errors.append(f"{where}: env {var['name']}: {kind}/{name} does not exist")
                            continue
                        if key not in keys:
                            errors.append(f"{where}: env {var['name']}: {kind}/{name} has no key {key!r}")
                if var["name"].startswith("DICELOG_") and not value_from:
                    errors.append(f"{where}: {var['name']} is inline; it belongs in the ConfigMap or Secret")
    assert not errors, "\n".join(errors)


@pytest.mark.parametrize("name", ["dicelog-api", "dicelog-worker"])
def test_dicelog_env_comes_from_configmap_or_secret(name: str) -> None:
    docs = all_docs()
    c = only_container(find(docs, "Deployment", name))
    env = effective_env(docs, c)
    missing = REQUIRED_ENV - env.keys()
    assert not missing, f"{name}: missing env {sorted(missing)}"
    for var, source in env.items():
        if var.startswith("DICELOG_"):
            assert source.startswith(("ConfigMap/", "Secret/")), f"{name}: {var} comes from {source}"
    for var in SECRET_ENV:
        assert env[var].startswith("Secret/"), f"{name}: {var} must come from a Secret, not {env[var]}"
    # $(VAR) references in command, args and env values must resolve to a defined variable.
    texts = c.get("command", []) + c.get("args", []) + [v.get("value", "") for v in c.get("env", [])]
    for text in texts:
        for ref in re.findall(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", text):
            assert ref in env, f"{name}: $({ref}) is referenced but not defined"


def test_configmap_values() -> None:
    docs = all_docs()
    config = find(docs, "ConfigMap", "dicelog-config")["data"]
    assert all(v.startswith("DICELOG_") for v in config), "the ConfigMap holds DICELOG_* settings only"
    assert not SECRET_ENV & config.keys(), "secrets do not belong in the ConfigMap"
    assert config["DICELOG_STORE"] == "postgres"
    assert config["DICELOG_EMBEDDED_WORKER"] == "false", "API replicas must not run projections"
    assert int(config["DICELOG_SNAPSHOT_INTERVAL"]) > 0

    def service_port(name: str) -> set[int]:
        return {p["port"] for p in find(docs, "Service", name)["spec"]["ports"]}

    assert int(config["DICELOG_POSTGRES_PORT"]) in service_port(config["DICELOG_POSTGRES_HOST"])
    redis = re.fullmatch(r"redis://([^:/]+):(\d+)(/\d+)?", config["DICELOG_REDIS_URL"])
    assert redis, f"unexpected DICELOG_REDIS_URL {config['DICELOG_REDIS_URL']!r}"
    assert int(redis.group(2)) in service_port(redis.group(1))
