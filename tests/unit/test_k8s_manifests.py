"""The Kubernetes manifests in k8s/: schema-valid, and consistent with how dicelog runs.

Every YAML document in k8s/*.yaml (kustomization.yaml aside) is validated offline against the
Kubernetes JSON schemas shipped by ``kubernetes-validate`` (strict: unknown fields are errors).
On top of the schema, the tests check what a schema cannot: the API's probes, resources on every
container, that every ``DICELOG_*`` variable comes from the ConfigMap or a Secret (passwords only
from a Secret: ``DICELOG_REDIS_URL`` is composed from the Redis password), that the worker runs
``dicelog worker`` and the migrate Job ``dicelog migrate`` (the API and the worker wait for it),
that every container runs locked down as non-root, that Redis requires its password (the manifest's
own start command and probe are run against a local redis-server), and what the NetworkPolicies
allow, evaluated for every pair of pods.
"""

from __future__ import annotations

import ipaddress
import os
import re
import shutil
import socket
import subprocess
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import kubernetes_validate
import pytest
import redis
import yaml

from tests.services import redis_server_binary

ROOT = Path(__file__).resolve().parents[2]
K8S_DIR = ROOT / "k8s"
KUBERNETES_VERSION = "1.37.0"
NAMESPACE = "dicelog"
IMAGE = "dicelog:0.1.0"
DICELOG_UID = 10001  # the Dockerfile's USER (tests/unit/test_dockerfile.py checks that side)

MANIFEST_FILES = sorted(p for p in K8S_DIR.glob("*.yaml") if p.name != "kustomization.yaml")

# What the API and the worker must both receive (docs/architecture.md, Runtime: configuration by env only).
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
# Settings that carry a password: from a Secret, or composed ($(VAR)) from a Secret's key.
SECRET_ENV = {"DICELOG_POSTGRES_PASSWORD", "DICELOG_REDIS_URL"}
# What the migrate Job needs: PostgreSQL only.
MIGRATE_ENV = {
    "DICELOG_STORE",
    "DICELOG_POSTGRES_HOST",
    "DICELOG_POSTGRES_PORT",
    "DICELOG_POSTGRES_DBNAME",
    "DICELOG_POSTGRES_USER",
    "DICELOG_POSTGRES_PASSWORD",
}
WORKLOAD_KINDS = {"Deployment", "StatefulSet", "DaemonSet", "Job", "CronJob"}
DICELOG_WORKLOADS = [
    ("Deployment", "dicelog-api"),
    ("Deployment", "dicelog-worker"),
    ("Job", "dicelog-migrate"),
    ("CronJob", "dicelog-backup"),
]


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


def template(workload: dict[str, Any]) -> dict[str, Any]:
    """The pod template of a workload (a CronJob's is in its job template)."""
    spec = workload["spec"]
    return spec["jobTemplate"]["spec"]["template"] if workload["kind"] == "CronJob" else spec["template"]


def containers(workload: dict[str, Any]) -> list[dict[str, Any]]:
    pod = template(workload)["spec"]
    return list(pod.get("initContainers", [])) + list(pod["containers"])


def workloads(docs: list[Doc]) -> Iterator[tuple[Doc, dict[str, Any]]]:
    for doc in docs:
        if doc[2].get("kind") in WORKLOAD_KINDS:
            yield doc, doc[2]


def only_container(workload: dict[str, Any]) -> dict[str, Any]:
    cs = template(workload)["spec"]["containers"]
    assert len(cs) == 1, f"{workload['metadata']['name']}: expected one container, found {len(cs)}"
    return cs[0]


def config_keys(docs: list[Doc], kind: str, name: str) -> set[str]:
    obj = find(docs, kind, name)
    keys = set(obj.get("data") or {})
    if kind == "Secret":
        keys |= set(obj.get("stringData") or {})
    return keys


VAR_REF = re.compile(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)")


def effective_env(docs: list[Doc], container: dict[str, Any]) -> dict[str, str]:
    """Variable name -> where it comes from: 'ConfigMap/x', 'Secret/y', 'literal', or for a value
    built from other variables ($(VAR), expanded by Kubernetes) 'composed:' and their sources."""
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
        elif refs := VAR_REF.findall(var.get("value", "")):
            env[var["name"]] = "composed:" + "+".join(env.get(ref, f"undefined {ref}") for ref in refs)
        else:
            env[var["name"]] = "literal"
    return env


def from_secret(source: str) -> bool:
    """A Secret's value, directly or composed of Secret and ConfigMap values with at least one Secret."""
    if source.startswith("Secret/"):
        return True
    parts = source.removeprefix("composed:").split("+") if source.startswith("composed:") else []
    return any(p.startswith("Secret/") for p in parts) and all(
        p.startswith(("Secret/", "ConfigMap/")) for p in parts
    )


def from_config(source: str) -> bool:
    """From the ConfigMap or a Secret (directly or composed of them only)."""
    return source.startswith(("ConfigMap/", "Secret/")) or from_secret(source)


def pyproject_version() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


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
    """Also what `kubectl apply -k k8s/` applies: nothing is left out."""
    kustomization = yaml.safe_load((K8S_DIR / "kustomization.yaml").read_text())
    assert sorted(kustomization["resources"]) == sorted(p.name for p in MANIFEST_FILES)
    assert kustomization.get("namespace") == NAMESPACE


# --------------------------------------------------------------------------- workloads


def test_api_deployment_probes_and_command() -> None:
    docs = all_docs()
    api = find(docs, "Deployment", "dicelog-api")
    assert "replicas" not in api["spec"], "autoscaling.yaml's HorizontalPodAutoscaler sets them"
    c = only_container(api)
    assert c["image"] == IMAGE
    assert c.get("command", []) + c.get("args", []) == [
        "dicelog",
        "serve",
        "--host",
        "0.0.0.0",
        "--port",
        "8000",
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


def test_image_is_the_packaged_version() -> None:
    """Every dicelog container runs the image of this version (``docker build -t dicelog:<version>``)."""
    assert f"dicelog:{pyproject_version()}" == IMAGE, "k8s/ and the test must follow pyproject's version"
    docs = all_docs()
    for kind, name in DICELOG_WORKLOADS:
        for c in containers(find(docs, kind, name)):
            assert c["image"] == IMAGE, f"{name} container {c['name']}: image {c['image']}"


def test_migrate_job_runs_dicelog_migrate() -> None:
    docs = all_docs()
    job = find(docs, "Job", "dicelog-migrate")
    pod = job["spec"]["template"]["spec"]
    assert pod["restartPolicy"] in ("Never", "OnFailure")
    assert job["spec"].get("backoffLimit", 6) >= 1, "a first apply may run it before PostgreSQL is ready"
    c = only_container(job)
    assert c.get("command", []) + c.get("args", []) == ["dicelog", "migrate"]
    env = effective_env(docs, c)
    assert env.keys() >= MIGRATE_ENV, f"dicelog-migrate: missing env {sorted(MIGRATE_ENV - env.keys())}"
    assert env["DICELOG_POSTGRES_PASSWORD"].startswith("Secret/")
    assert "DICELOG_REDIS_URL" not in env, (
        "the migrate Job needs PostgreSQL only (and may reach nothing else)"
    )


@pytest.mark.parametrize("name", ["dicelog-api", "dicelog-worker"])
def test_api_and_worker_wait_for_the_migration(name: str) -> None:
    """An init container polls `dicelog migrate --check` (exit 0 once the schema is this image's),
    and the processes themselves never migrate (DICELOG_AUTO_MIGRATE=false), so N replicas never
    race on DDL and an old schema is never used."""
    docs = all_docs()
    pod = find(docs, "Deployment", name)["spec"]["template"]["spec"]
    inits = pod.get("initContainers", [])
    assert len(inits) == 1, f"{name}: expected one init container waiting for the migration"
    init = inits[0]
    script = " ".join(init.get("command", []) + init.get("args", []))
    assert "dicelog migrate --check" in script, (
        f"{name}: the init container must wait on `dicelog migrate --check`"
    )
    assert re.search(r"\b(until|while)\b", script), (
        f"{name}: the init container must poll until the check passes"
    )
    env = effective_env(docs, init)
    assert env.keys() >= MIGRATE_ENV, f"{name} init: missing env {sorted(MIGRATE_ENV - env.keys())}"
    config = find(docs, "ConfigMap", "dicelog-config")["data"]
    assert config.get("DICELOG_AUTO_MIGRATE") == "false", (
        "the migrate Job migrates, not the API or the worker"
    )


def test_worker_runs_dicelog_worker() -> None:
    worker = find(all_docs(), "Deployment", "dicelog-worker")
    config = find(all_docs(), "ConfigMap", "dicelog-config")["data"]
    partitions = int(config.get("DICELOG_PARTITIONS", "1"))
    if partitions == 1:  # one worker runs every projection: two would collide
        assert worker["spec"]["replicas"] == 1
        assert worker["spec"].get("strategy", {}).get("type") == "Recreate", "two workers must never overlap"
    else:  # the replicas share the partitions through leases: each has work, and they may overlap
        assert 1 <= worker["spec"]["replicas"] <= partitions
        assert config.get("DICELOG_STORE") == "postgres", "partitions need PostgreSQL"
    c = only_container(worker)
    assert c["image"] == IMAGE
    assert " ".join(c.get("command", []) + c.get("args", [])) == "dicelog worker --host 0.0.0.0"
    (port,) = c["ports"]
    assert (port["name"], port["containerPort"]) == ("probes", 8001)  # DICELOG_WORKER_PORT's default
    assert c["livenessProbe"]["httpGet"] == {"path": "/live", "port": "probes"}
    assert c["readinessProbe"]["httpGet"] == {"path": "/ready", "port": "probes"}


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


def security(pod: dict[str, Any], c: dict[str, Any], key: str) -> Any:
    """A securityContext setting of container ``c``, falling back on the pod's."""
    return (c.get("securityContext") or {}).get(key, (pod.get("securityContext") or {}).get(key))


def test_every_container_runs_as_non_root_and_restricted() -> None:
    """Pod Security "restricted" (the namespace enforces it) for every container, init containers
    included: non-root with an explicit non-zero uid, no privilege escalation, ALL capabilities
    dropped, the RuntimeDefault seccomp profile."""
    problems = []
    for doc, workload in workloads(all_docs()):
        pod = template(workload)["spec"]
        assert pod.get("automountServiceAccountToken") is False, f"{label(doc)}: no API token needed"
        assert not pod.get("hostNetwork") and not pod.get("hostPID"), label(doc)
        for c in containers(workload):
            where = f"{label(doc)} container {c['name']}"
            if security(pod, c, "runAsNonRoot") is not True:
                problems.append(f"{where}: runAsNonRoot is not true")
            uid = security(pod, c, "runAsUser")
            if not isinstance(uid, int) or uid == 0:
                problems.append(f"{where}: runAsUser must be a non-zero uid, not {uid!r}")
            ctx = c.get("securityContext") or {}
            if ctx.get("allowPrivilegeEscalation") is not False:
                problems.append(f"{where}: allowPrivilegeEscalation must be false")
            if ctx.get("privileged"):
                problems.append(f"{where}: privileged")
            if (ctx.get("capabilities") or {}).get("drop") != ["ALL"]:
                problems.append(f"{where}: capabilities must drop ALL")
            if (ctx.get("capabilities") or {}).get("add"):
                problems.append(f"{where}: adds capabilities")
            seccomp = (
                ctx.get("seccompProfile") or (pod.get("securityContext") or {}).get("seccompProfile") or {}
            )
            if seccomp.get("type") != "RuntimeDefault":
                problems.append(f"{where}: seccompProfile must be RuntimeDefault")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("kind,name", DICELOG_WORKLOADS, ids=[n for _, n in DICELOG_WORKLOADS])
def test_dicelog_containers_are_locked_down(kind: str, name: str) -> None:
    """dicelog's containers: the image's uid, a read-only root filesystem, /tmp an emptyDir."""
    workload = find(all_docs(), kind, name)
    pod = template(workload)["spec"]
    volumes = {v["name"]: v for v in pod.get("volumes", [])}
    for c in containers(workload):
        where = f"{name} container {c['name']}"
        assert security(pod, c, "runAsNonRoot") is True, f"{where}: runAsNonRoot"
        assert security(pod, c, "runAsUser") == DICELOG_UID, (
            f"{where}: runs as the image's user {DICELOG_UID}"
        )
        assert c["securityContext"].get("readOnlyRootFilesystem") is True, f"{where}: readOnlyRootFilesystem"
        tmp = [m for m in c.get("volumeMounts", []) if m["mountPath"] == "/tmp"]
        assert tmp, f"{where}: /tmp must be a writable volume"
        assert "emptyDir" in volumes[tmp[0]["name"]], f"{where}: /tmp must be an emptyDir"


def test_backing_services() -> None:
    """PostgreSQL 16 and Redis 7, each at an exact release (moved on purpose, never by a pull)."""
    docs = all_docs()
    postgres = find(docs, "StatefulSet", "postgres")
    assert re.fullmatch(r"postgres:16\.\d+", only_container(postgres)["image"])
    assert postgres["spec"].get("volumeClaimTemplates"), "postgres needs a volumeClaimTemplate"
    assert re.fullmatch(r"redis:7\.\d+\.\d+", only_container(find(docs, "StatefulSet", "redis"))["image"])
    find(docs, "Service", "postgres")
    find(docs, "Service", "redis")
    assert redis_container(docs)["securityContext"].get("readOnlyRootFilesystem") is True


def test_services_and_workload_selectors_match_pods() -> None:
    docs = all_docs()
    pod_labels = []
    for doc, workload in workloads(docs):
        labels = template(workload)["metadata"]["labels"]
        pod_labels.append(labels)
        if workload["kind"] in ("Job", "CronJob"):
            continue  # a Job's selector is generated
        selector = workload["spec"]["selector"]["matchLabels"]
        assert selector.items() <= labels.items(), f"{label(doc)}: selector does not match its pods"
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
                if (
                    var["name"].startswith("DICELOG_")
                    and not value_from
                    and not VAR_REF.search(var.get("value", ""))
                ):
                    errors.append(f"{where}: {var['name']} is inline; it belongs in the ConfigMap or Secret")
            # $(VAR) in a value is expanded only from variables defined before it.
            defined: set[str] = set(effective_env(docs, {"envFrom": c.get("envFrom", [])}))
            for var in c.get("env", []):
                for ref in VAR_REF.findall(var.get("value", "")):
                    if ref not in defined:
                        errors.append(f"{where}: {var['name']} uses $({ref}) before it is defined")
                defined.add(var["name"])
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
            assert from_config(source), f"{name}: {var} comes from {source}"
    for var in SECRET_ENV:
        assert from_secret(env[var]), f"{name}: {var} must come from a Secret, not {env[var]}"
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
    assert 1 <= int(config["DICELOG_POSTGRES_POOL_SIZE"]) <= 10, (
        "a modest pool: N replicas share max_connections"
    )
    for name in ("dicelog-api", "dicelog-worker"):
        url = redis_url_template(docs, name)
        match = re.fullmatch(r"redis://:\$\((\w+)\)@([^:/]+):(\d+)(/\d+)?", url)
        assert match, f"{name}: unexpected DICELOG_REDIS_URL {url!r} (redis://:$(PASSWORD)@host:port/db)"
        assert int(match.group(3)) in service_port(match.group(2)), f"{name}: {url} names no Service port"


# --------------------------------------------------------------------------- secrets and Redis auth


def redis_container(docs: list[Doc]) -> dict[str, Any]:
    return only_container(find(docs, "StatefulSet", "redis"))


def redis_url_template(docs: list[Doc], name: str) -> str:
    c = only_container(find(docs, "Deployment", name))
    (var,) = [v for v in c.get("env", []) if v["name"] == "DICELOG_REDIS_URL"]
    return var["value"]


def secret_value(docs: list[Doc], name: str, key: str) -> str:
    return find(docs, "Secret", name)["stringData"][key]


def test_passwords_live_only_in_their_secrets() -> None:
    """Each Secret's placeholder appears in no other document (no password in a ConfigMap, a
    command line or an env value), and the two Secrets differ."""
    docs = all_docs()
    secrets = {
        (d["metadata"]["name"], k): v
        for _, _, d in docs
        if d["kind"] == "Secret"
        for k, v in (d.get("stringData") or {}).items()
    }
    assert {("dicelog-db", "password"), ("dicelog-redis", "password")} <= secrets.keys()
    assert secrets[("dicelog-db", "password")] != secrets[("dicelog-redis", "password")]
    for doc in docs:
        if doc[2]["kind"] == "Secret":
            continue
        text = yaml.safe_dump(doc[2])
        for (name, key), value in secrets.items():
            assert value not in text, f"{label(doc)} holds the value of Secret {name}/{key}"


def test_redis_requires_the_password_from_its_secret() -> None:
    docs = all_docs()
    c = redis_container(docs)
    env = effective_env(docs, c)
    script = " ".join(c.get("command", []) + c.get("args", []))
    password_vars = [v for v, source in env.items() if source == "Secret/dicelog-redis"]
    assert re.search(r"requirepass \$\{?(\w+)\}?", script), "redis-server must be given requirepass"
    var = re.search(r"requirepass \$\{?(\w+)\}?", script).group(1)  # type: ignore[union-attr]
    assert var in password_vars, f"requirepass ${var} must come from the Secret dicelog-redis"
    assert env.get("REDISCLI_AUTH") == "Secret/dicelog-redis", "the probes' redis-cli authenticates"
    for name in ("dicelog-api", "dicelog-worker"):
        app = only_container(find(docs, "Deployment", name))
        app_env = effective_env(docs, app)
        assert app_env["DICELOG_REDIS_URL"] == "composed:Secret/dicelog-redis", name
    assert "DICELOG_REDIS_URL" not in find(docs, "ConfigMap", "dicelog-config")["data"]


def test_the_api_scales_within_the_postgresql_connection_budget() -> None:
    """A HorizontalPodAutoscaler on the API's CPU (the pods request CPU, or utilization means
    nothing), from at least 2 replicas, whose most replicas, with the worker and a few one-off
    connections, stay under PostgreSQL's max_connections (100); the Deployment leaves its replica
    count to it; replicas are spread over nodes and zones."""
    docs = all_docs()
    hpa = find(docs, "HorizontalPodAutoscaler", "dicelog-api")["spec"]
    assert hpa["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment", "name": "dicelog-api"}
    api = find(docs, "Deployment", "dicelog-api")
    assert "replicas" not in api["spec"], "the HorizontalPodAutoscaler sets the API's replicas"
    assert only_container(api)["resources"]["requests"]["cpu"]
    assert 2 <= hpa["minReplicas"] < hpa["maxReplicas"]
    metrics = [m["resource"]["name"] for m in hpa["metrics"] if m["type"] == "Resource"]
    assert metrics == ["cpu"]
    config = find(docs, "ConfigMap", "dicelog-config")["data"]
    per_process = int(config["DICELOG_POSTGRES_POOL_SIZE"]) + int(
        config.get("DICELOG_POSTGRES_MAX_OVERFLOW", "4")
    )
    workers = find(docs, "Deployment", "dicelog-worker")["spec"]["replicas"]
    assert (hpa["maxReplicas"] + workers) * per_process + 10 <= 100 - 3, "over PostgreSQL's max_connections"
    spread = template(api)["spec"]["topologySpreadConstraints"]
    assert {c["topologyKey"] for c in spread} == {"kubernetes.io/hostname", "topology.kubernetes.io/zone"}
    for c in spread:
        assert selects(c["labelSelector"], template(api)["metadata"]["labels"]), c


def test_the_backup_cronjob_writes_dicelog_backup_files_to_its_volume() -> None:
    docs = all_docs()
    cron = find(docs, "CronJob", "dicelog-backup")
    assert cron["spec"]["concurrencyPolicy"] == "Forbid", "two backups never run at once"
    c = only_container(cron)
    script = " ".join(c.get("command", []) + c.get("args", []))
    assert re.search(r"dicelog backup \S*/backups/", script), script
    mounts = {m["mountPath"]: m["name"] for m in c["volumeMounts"]}
    volumes = {v["name"]: v for v in template(cron)["spec"]["volumes"]}
    claim = volumes[mounts["/backups"]]["persistentVolumeClaim"]["claimName"]
    find(docs, "PersistentVolumeClaim", claim)
    env = effective_env(docs, c)
    assert env.keys() >= MIGRATE_ENV and env["DICELOG_POSTGRES_PASSWORD"].startswith("Secret/")
    assert "DICELOG_REDIS_URL" not in env, "a backup reads PostgreSQL only"


def test_redis_memory_is_bounded_below_its_container_limit() -> None:
    """``maxmemory`` set, below the container's memory limit (room for the append-only file's
    rewrite), with an eviction policy: Redis never grows until the kernel kills it."""
    c = redis_container(all_docs())
    script = " ".join(c.get("command", []) + c.get("args", []))
    found = re.search(r"--maxmemory (\d+)mb", script)
    assert found, "redis-server must be given --maxmemory <n>mb"
    limit = c["resources"]["limits"]["memory"]
    assert limit.endswith("Mi"), limit
    assert int(found.group(1)) * 10**6 <= 0.8 * int(limit[:-2]) * 2**20, (found.group(0), limit)
    assert re.search(r"--maxmemory-policy (allkeys|volatile)-(lru|lfu|ttl|random)", script), script


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.redis
def test_redis_start_command_and_probe_work(tmp_path: Path) -> None:
    """The manifest's own Redis start script and probe, run against a local redis-server: it
    starts (as the shell's exec, so it gets the signals), refuses clients without the password,
    the probe passes with REDISCLI_AUTH only, and the app's DICELOG_REDIS_URL, expanded the way
    Kubernetes does, connects."""
    docs = all_docs()
    c = redis_container(docs)
    command = c.get("command", []) + c.get("args", [])
    assert command[:2] == ["sh", "-c"], "expected a sh -c start script"
    script = command[2]
    assert script.count("redis-server -") == 1 and script.count("--dir /data") == 1
    server = redis_server_binary()
    cli = shutil.which("redis-cli") or str(Path(server).with_name("redis-cli"))
    port = _free_port()
    password = "0123abcd" * 6
    local = script.replace("redis-server -", f"{server} - --port {port} --bind 127.0.0.1", 1)
    local = local.replace("--dir /data", f"--dir {tmp_path}")
    proc = subprocess.Popen(
        ["sh", "-c", local],
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "REDIS_PASSWORD": password},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        client = redis.Redis(port=port, password=password, socket_timeout=2)
        deadline = time.monotonic() + 10
        while True:
            try:
                assert client.ping()
                break
            except redis.ConnectionError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    out = proc.stdout.read().decode() if proc.stdout else ""
                    pytest.fail(f"redis did not start from the manifest's script:\n{out}")
                time.sleep(0.1)
        assert Path(f"/proc/{proc.pid}/comm").read_text().strip().startswith("redis-server"), (
            "exec redis-server"
        )
        with pytest.raises(redis.exceptions.RedisError, match="(?i)auth"):
            redis.Redis(port=port, socket_timeout=2).ping()
        memory = client.config_get("maxmemory*")
        assert int(memory["maxmemory"]) > 0 and memory["maxmemory-policy"] == "allkeys-lru", memory

        for probe in ("readinessProbe", "livenessProbe"):
            probe_command = c[probe]["exec"]["command"]
            assert probe_command[:2] == ["sh", "-c"]
            probe_script = probe_command[2].replace("redis-cli", f"{cli} -p {port}")
            base_env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
            ok = subprocess.run(
                ["sh", "-c", probe_script],
                env=base_env | {"REDISCLI_AUTH": password},
                timeout=10,
                check=False,
            )
            assert ok.returncode == 0, f"{probe} fails against a healthy Redis"
            for env in (base_env, base_env | {"REDISCLI_AUTH": "wrong"}):
                bad = subprocess.run(
                    ["sh", "-c", probe_script], env=env, timeout=10, capture_output=True, check=False
                )
                assert bad.returncode != 0, f"{probe} passes without the right password"

        for name in ("dicelog-api", "dicelog-worker"):
            url = redis_url_template(docs, name).replace("$(REDIS_PASSWORD)", password)
            url = re.sub(r"@[^:/]+:\d+", f"@127.0.0.1:{port}", url)
            assert redis.Redis.from_url(url, socket_timeout=2).ping(), f"{name}: DICELOG_REDIS_URL"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout:
            proc.stdout.close()


# --------------------------------------------------------------------------- network policies


class Endpoint(NamedTuple):
    """One end of a connection: a pod (namespace, its labels, the namespace's labels, named ports)
    or, with ``ip``, an address outside the cluster."""

    name: str
    namespace: str
    labels: dict[str, str]
    namespace_labels: dict[str, str]
    ports: dict[str, int]
    ip: str = ""


def selects(selector: dict[str, Any], labels: dict[str, str]) -> bool:
    """A label selector (matchLabels and matchExpressions); {} selects everything."""
    if any(labels.get(k) != v for k, v in (selector.get("matchLabels") or {}).items()):
        return False
    for e in selector.get("matchExpressions") or []:
        key, op, values = e["key"], e["operator"], e.get("values", [])
        ok = {
            "In": key in labels and labels[key] in values,
            "NotIn": labels.get(key) not in values,
            "Exists": key in labels,
            "DoesNotExist": key not in labels,
        }[op]
        if not ok:
            return False
    return True


def peer_matches(peer: dict[str, Any], other: Endpoint) -> bool:
    if "ipBlock" in peer:
        if not other.ip:
            return False  # pod addresses: left to the implementation; these policies use selectors
        address = ipaddress.ip_address(other.ip)
        block = peer["ipBlock"]
        return address in ipaddress.ip_network(block["cidr"]) and not any(
            address in ipaddress.ip_network(e) for e in block.get("except", [])
        )
    if other.ip:
        return False
    if "namespaceSelector" in peer:
        if not selects(peer["namespaceSelector"], other.namespace_labels):
            return False
    elif other.namespace != NAMESPACE:
        return False
    return selects(peer.get("podSelector") or {}, other.labels)


def rule_matches(
    rule: dict[str, Any], peers_key: str, other: Endpoint, dst: Endpoint, port: int, protocol: str
) -> bool:
    peers = rule.get(peers_key)
    if peers and not any(peer_matches(p, other) for p in peers):
        return False
    ports = rule.get("ports")
    if not ports:
        return True
    for p in ports:
        if p.get("protocol", "TCP") != protocol:
            continue
        if "port" not in p:
            return True
        number = dst.ports.get(p["port"]) if isinstance(p["port"], str) else p["port"]
        if number is not None and number <= port <= p.get("endPort", number):
            return True
    return False


def policy_types(policy: dict[str, Any]) -> set[str]:
    spec = policy["spec"]
    return set(spec.get("policyTypes") or (["Ingress"] + (["Egress"] if "egress" in spec else [])))


def allowed(
    policies: list[dict[str, Any]], src: Endpoint, dst: Endpoint, port: int, protocol: str = "TCP"
) -> bool:
    """Whether NetworkPolicy semantics let ``src`` open ``port`` on ``dst``: the source's egress
    and the destination's ingress must both allow it (a pod no policy of that direction selects is
    open in that direction; the policies of a direction add up)."""

    def direction(pod: Endpoint, kind: str, other: Endpoint, peers_key: str) -> bool:
        if pod.ip or pod.namespace != NAMESPACE:
            return True  # not governed by this namespace's policies
        selecting = [
            p for p in policies if kind in policy_types(p) and selects(p["spec"]["podSelector"], pod.labels)
        ]
        if not selecting:
            return True
        rules = [r for p in selecting for r in p["spec"].get(kind.lower()) or []]
        return any(rule_matches(r, peers_key, other, dst, port, protocol) for r in rules)

    return direction(src, "Egress", dst, "to") and direction(dst, "Ingress", src, "from")


def namespace_labels(docs: list[Doc]) -> dict[str, str]:
    labels = dict(find(docs, "Namespace", NAMESPACE)["metadata"].get("labels") or {})
    return labels | {"kubernetes.io/metadata.name": NAMESPACE}


def pods(docs: list[Doc]) -> dict[str, Endpoint]:
    """The namespace's pods, one per workload, by their app.kubernetes.io/name."""
    ns_labels = namespace_labels(docs)
    out = {}
    for _, workload in workloads(docs):
        pod = template(workload)
        labels = pod["metadata"]["labels"]
        ports = {
            p["name"]: p["containerPort"]
            for c in pod["spec"]["containers"]
            for p in c.get("ports", [])
            if "name" in p
        }
        out[labels["app.kubernetes.io/name"]] = Endpoint(
            labels["app.kubernetes.io/name"], NAMESPACE, labels, ns_labels, ports
        )
    return out


def network_policies(docs: list[Doc]) -> list[dict[str, Any]]:
    return [d for _, _, d in docs if d["kind"] == "NetworkPolicy"]


KUBE_DNS = Endpoint(
    "kube-dns", "kube-system", {"k8s-app": "kube-dns"}, {"kubernetes.io/metadata.name": "kube-system"}, {}
)
INGRESS_CONTROLLER = Endpoint(
    "ingress-nginx",
    "ingress-nginx",
    {"app.kubernetes.io/name": "ingress-nginx"},
    {"kubernetes.io/metadata.name": "ingress-nginx"},
    {},
)
INTERNET = Endpoint("internet", "", {}, {}, {}, ip="203.0.113.7")
PROMETHEUS = Endpoint(
    "prometheus",
    "monitoring",
    {"app.kubernetes.io/name": "prometheus"},
    {"kubernetes.io/metadata.name": "monitoring"},
    {},
)
PORTS = (8000, 8001, 5432, 6379, 53, 80, 443, 9999)

# The only connections between the namespace's pods (source, destination, port).
EXPECTED_INSIDE = {
    ("dicelog-api", "pgbouncer", 5432),
    ("dicelog-worker", "pgbouncer", 5432),
    ("pgbouncer", "postgres", 5432),
    ("dicelog-migrate", "postgres", 5432),
    ("dicelog-backup", "postgres", 5432),
    ("dicelog-api", "redis", 6379),
    ("dicelog-worker", "redis", 6379),
}


def test_network_policies_deny_by_default_and_select_real_pods() -> None:
    docs = all_docs()
    policies = network_policies(docs)
    default = [
        p
        for p in policies
        if p["spec"]["podSelector"] == {}
        and policy_types(p) == {"Ingress", "Egress"}
        and not p["spec"].get("ingress")
        and not p["spec"].get("egress")
    ]
    assert default, "a default-deny NetworkPolicy (podSelector {}, Ingress and Egress, no rules) is required"
    by_name = pods(docs)
    assert set(by_name) == {
        "dicelog-api",
        "dicelog-worker",
        "dicelog-migrate",
        "dicelog-backup",
        "postgres",
        "pgbouncer",
        "redis",
    }
    for policy in policies:
        selector = policy["spec"]["podSelector"]
        if selector == {}:
            continue
        selected = [n for n, pod in by_name.items() if selects(selector, pod.labels)]
        assert len(selected) == 1, f"NetworkPolicy {policy['metadata']['name']} selects {selected}"
        # every peer selector of the namespace's own pods names a real pod
        for rule in (policy["spec"].get("ingress") or []) + (policy["spec"].get("egress") or []):
            for peer in rule.get("from", []) + rule.get("to", []):
                if "podSelector" in peer and "namespaceSelector" not in peer:
                    assert any(selects(peer["podSelector"], p.labels) for p in by_name.values()), (
                        f"NetworkPolicy {policy['metadata']['name']}: peer {peer} matches no pod"
                    )
    for name in by_name:
        assert any(selects(p["spec"]["podSelector"], by_name[name].labels) for p in policies), name


def test_network_policies_allow_exactly_the_intended_connections() -> None:
    docs = all_docs()
    policies = network_policies(docs)
    by_name = pods(docs)
    inside = {
        (s, d, port)
        for s in by_name
        for d in by_name
        for port in PORTS
        if s != d and allowed(policies, by_name[s], by_name[d], port)
    }
    assert inside == EXPECTED_INSIDE, (
        f"unexpected: {sorted(inside - EXPECTED_INSIDE)}; missing: {sorted(EXPECTED_INSIDE - inside)}"
    )
    # the API answers on 8000 only, to anyone (an Ingress controller, a load balancer, the internet)
    for outside in (INGRESS_CONTROLLER, INTERNET):
        reachable = {
            (d, port) for d in by_name for port in PORTS if allowed(policies, outside, by_name[d], port)
        }
        assert reachable == {("dicelog-api", 8000)}, f"from {outside.name}: {sorted(reachable)}"
    # Prometheus (namespace monitoring) scrapes the API's and the worker's /metrics, nothing else
    scraped = {
        (d, port) for d in by_name for port in PORTS if allowed(policies, PROMETHEUS, by_name[d], port)
    }
    assert scraped == {("dicelog-api", 8000), ("dicelog-worker", 8001)}, sorted(scraped)
    # every pod resolves names; none reaches out of the cluster
    for pod in by_name.values():
        for protocol in ("UDP", "TCP"):
            assert allowed(policies, pod, KUBE_DNS, 53, protocol), f"{pod.name}: no DNS over {protocol}"
        assert not allowed(policies, pod, INTERNET, 443), f"{pod.name} reaches the internet"
        assert not allowed(policies, pod, KUBE_DNS, 443), f"{pod.name} reaches kube-system beyond DNS"


def test_network_policy_evaluator_sees_an_open_namespace_as_open() -> None:
    """The evaluator itself: with no policies everything is allowed; with only the default deny
    nothing is (so the test above is not vacuous)."""
    by_name = pods(all_docs())
    api, postgres = by_name["dicelog-api"], by_name["postgres"]
    assert allowed([], api, postgres, 5432)
    deny = {"spec": {"podSelector": {}, "policyTypes": ["Ingress", "Egress"]}}
    assert not allowed([deny], api, postgres, 5432)
    assert not allowed([deny], INTERNET, api, 8000)
    assert not allowed([deny], api, KUBE_DNS, 53, "UDP")


# --------------------------------------------------------------------------- PgBouncer


def env_value(docs: list[Doc], container: dict[str, Any], name: str) -> str | None:
    """The value a container's variable ``name`` gets from its envFrom ConfigMaps (the last one
    holding it wins, as in Kubernetes) or its literal env."""
    value = None
    for source in container.get("envFrom", []):
        if "configMapRef" in source:
            data = find(docs, "ConfigMap", source["configMapRef"]["name"]).get("data") or {}
            value = data.get(name, value)
    for var in container.get("env", []):
        if var["name"] == name and "value" in var:
            value = var["value"]
    return value


def pgbouncer_ini(docs: list[Doc]) -> dict[str, str]:
    text = find(docs, "ConfigMap", "pgbouncer-config")["data"]["pgbouncer.ini"]
    settings = {}
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith((";", "[")) and "=" in line:
            key, _, value = line.partition("=")
            settings[key.strip()] = value.strip()
    return settings


def test_the_api_and_workers_go_through_pgbouncer_in_transaction_pooling() -> None:
    """The API and the workers connect to PgBouncer (transaction pooling, prepared statements kept:
    the eventsourcing library prepares its statements); the migrate Job and the backup CronJob to
    PostgreSQL itself (migrate holds a session-level advisory lock); PgBouncer's server connections
    stay within PostgreSQL's max_connections; its password comes from the Secret dicelog-db."""
    docs = all_docs()
    ini = pgbouncer_ini(docs)
    assert ini["pool_mode"] == "transaction"
    assert int(ini["max_prepared_statements"]) > 0, "the library's prepared statements need it (1.21+)"
    assert re.fullmatch(
        r"edoburu/pgbouncer:v1\.(2[1-9]|[3-9]\d)\.\d+-p\d+",
        only_container(find(docs, "Deployment", "pgbouncer"))["image"],
    )
    databases = find(docs, "ConfigMap", "pgbouncer-config")["data"]["pgbouncer.ini"]
    config = find(docs, "ConfigMap", "dicelog-config")["data"]
    assert f"{config['DICELOG_POSTGRES_DBNAME']} = host=postgres port=5432" in databases
    for kind, name, host in (
        ("Deployment", "dicelog-api", "pgbouncer"),
        ("Deployment", "dicelog-worker", "pgbouncer"),
        ("Job", "dicelog-migrate", "postgres"),
        ("CronJob", "dicelog-backup", "postgres"),
    ):
        for c in containers(find(docs, kind, name)):
            assert env_value(docs, c, "DICELOG_POSTGRES_HOST") == host, (name, c["name"])
    bouncer = find(docs, "Deployment", "pgbouncer")
    assert bouncer["spec"]["replicas"] * int(ini["max_db_connections"]) + 10 <= 100 - 3
    env = effective_env(docs, only_container(bouncer))
    assert env["DB_PASSWORD"] == "Secret/dicelog-db"
