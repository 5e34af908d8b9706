from __future__ import annotations

import pytest

from services.relay.settings import RelaySettings
from shared.bus.namespace import Namespace
from shared.config import SettingsError, StoreSettings, load_settings, required_env


class DemoSettings(StoreSettings, kw_only=True, frozen=True):
    batch: int = 10


def test_settings_are_read_from_upper_case_variables() -> None:
    settings = load_settings(DemoSettings, {"DATABASE_URL": "postgresql://x", "NATS_URL": "nats://y",
                                            "BATCH": "25", "HTTP_PORT": "8081", "UNRELATED": "z"})
    assert (settings.database_url, settings.nats_url, settings.batch, settings.http_port) == (
        "postgresql://x", "nats://y", 25, 8081)
    assert settings.environment == "dev"


def test_missing_and_empty_required_variables_are_named() -> None:
    with pytest.raises(SettingsError, match="missing environment variable\\(s\\): NATS_URL, DATABASE_URL"):
        load_settings(DemoSettings, {"NATS_URL": ""})


def test_a_bad_value_names_its_variable() -> None:
    with pytest.raises(SettingsError, match="BATCH='many'"):
        load_settings(DemoSettings, {"DATABASE_URL": "d", "NATS_URL": "n", "BATCH": "many"})
    with pytest.raises(SettingsError, match="ENVIRONMENT"):
        load_settings(DemoSettings, {"DATABASE_URL": "d", "NATS_URL": "n", "ENVIRONMENT": "staging"})


def test_required_env_lists_fields_without_defaults() -> None:
    assert required_env(DemoSettings) == ["NATS_URL", "DATABASE_URL"]


def test_namespace_prefixes_subjects_and_the_stream() -> None:
    assert Namespace().command("engine", "command") == "league.engine.command"
    assert Namespace().event_subject("phantoms", "phantoms-1") == "events.phantoms.phantoms-1"
    assert Namespace().events_stream == "EVENTS"
    ns = Namespace("t1")
    assert ns.all_events == "t1.events.>" and ns.events_stream == "EVENTS_t1"
    with pytest.raises(ValueError):
        Namespace("a.b")


def test_a_relay_reading_pages_of_no_event_is_refused_at_start() -> None:
    with pytest.raises(SettingsError, match="RELAY_BATCH='0'"):
        load_settings(RelaySettings, {"DATABASE_URL": "d", "NATS_URL": "n", "RELAY_BATCH": "0"})
