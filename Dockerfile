# dicelog: one image for the API (`dicelog serve`, the default command), the projection worker
# (`dicelog worker`) and the schema step (`dicelog migrate`). See k8s/README.md.
#
#   docker build -t dicelog:0.1.0 .
#   docker run --rm -p 8000:8000 dicelog:0.1.0                 # SQLite in the container: a demo
#   docker run --rm -e DICELOG_STORE=postgres ... dicelog:0.1.0 worker
#
# Needs BuildKit's RUN --mount (Docker 23 or later, or podman/buildah); no `# syntax=` line, so
# the build pulls no frontend image besides the pinned base.
#
# Base: the Docker Official Image for Python 3.11 (the project's Python) on Debian 12 "bookworm",
# pinned by exact tag AND by the digest of its multi-platform index: the digest decides which bytes
# are built on (a rebuild months later gets the same base), the tag says to people what it is.
# Move both together, and only on purpose (k8s/README.md, "Build the image": base image).
# Override for a mirror: --build-arg PYTHON_IMAGE=registry.example.com/python:3.11.16-slim-bookworm@sha256:...
ARG PYTHON_IMAGE=python:3.11.16-slim-bookworm@sha256:0bee7276f83efd4a1ee05bbbf4281d95ed28e079220a9457f25a93e3f1e3c31b

# ---------------------------------------------------------------------------------------------
# builder: the dicelog wheel and a wheel of every dependency (nothing of this stage ships).
FROM ${PYTHON_IMAGE} AS builder

ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    PYTHONDONTWRITEBYTECODE=1

WORKDIR /src
# .dockerignore keeps the context to what the package build reads (no .git, tests, k8s/, .venv).
COPY . .
RUN pip wheel --wheel-dir /wheels . \
 && ls /wheels/dicelog-*.whl

# ---------------------------------------------------------------------------------------------
# runtime: Python, libpq and the installed wheels; no compiler, no pip, no package sources.
FROM ${PYTHON_IMAGE} AS runtime

LABEL org.opencontainers.image.title="dicelog" \
      org.opencontainers.image.description="Event-sourced rules service for tabletop games" \
      org.opencontainers.image.licenses="MIT"

# libpq5: psycopg (the PostgreSQL driver, pure Python) loads the system libpq at run time.
# Not version-pinned on purpose: Debian stable publishes only the current (security-patched)
# libpq5, so a pin would break every rebuild after its next update; the base digest is the pin.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends libpq5 \
 && rm -rf /var/lib/apt/lists/*

# The service's own user, uid/gid 10001 (k8s/ runs every dicelog pod as 10001:10001).
RUN groupadd --gid 10001 dicelog \
 && useradd --uid 10001 --gid dicelog --no-create-home --home-dir /var/lib/dicelog \
            --shell /usr/sbin/nologin dicelog \
 && install -d -o dicelog -g dicelog -m 0750 /var/lib/dicelog

# A virtualenv without pip, filled from the builder's wheels only (--no-index: nothing is fetched
# here); then the base image's own pip, setuptools and wheel go too.
RUN --mount=type=bind,from=builder,source=/wheels,target=/wheels \
    python -m venv --without-pip /opt/dicelog \
 && python -m pip --python /opt/dicelog/bin/python install \
      --no-cache-dir --disable-pip-version-check --no-index --find-links=/wheels /wheels/dicelog-*.whl \
 && python -m pip uninstall --yes --disable-pip-version-check pip setuptools wheel \
 && /opt/dicelog/bin/dicelog --help > /dev/null

# DICELOG_DATA_DIR: the SQLite files when DICELOG_STORE is sqlite (the default: a single container
# for a demo; mount a volume there to keep them). With PostgreSQL nothing is written, and the root
# filesystem can be read-only (k8s/ mounts only /tmp).
ENV PATH=/opt/dicelog/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DICELOG_DATA_DIR=/var/lib/dicelog

WORKDIR /var/lib/dicelog
USER 10001:10001
EXPOSE 8000

# For `serve` on port 8000 (the default command). Python, since the slim base has no curl; a
# container started with `worker` or `migrate` should disable it (compose: healthcheck: disable).
# Kubernetes ignores it and uses the probes in k8s/api.yaml.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request as u; sys.exit(0 if u.urlopen('http://127.0.0.1:8000/health', timeout=4).status == 200 else 1)"]

ENTRYPOINT ["dicelog"]
# 0.0.0.0: reachable from outside the container (the CLI's default, 127.0.0.1, is not).
CMD ["serve", "--host", "0.0.0.0", "--port", "8000"]
