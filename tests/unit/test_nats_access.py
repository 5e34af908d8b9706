"""The permission table covers every subject the league uses, for the users that use it, and no more."""

from __future__ import annotations

from shared.bus.auth import permissions_for
from shared.bus.namespace import ACCESS, Namespace


def matches(pattern: str, subject: str) -> bool:
    """nats-server's subject matching: ``*`` one token, ``>`` one or more at the end."""
    want, have = pattern.split("."), subject.split(".")
    for n, token in enumerate(want):
        if token == ">":
            return len(have) > n
        if n >= len(have) or (token != "*" and token != have[n]):
            return False
    return len(want) == len(have)


def may(user: str, action: str, subject: str, prefix: str = "t1") -> bool:
    permissions = permissions_for(user, [prefix])
    rule = permissions.publish if action == "publish" else permissions.subscribe
    return any(matches(p, subject) for p in rule.allow) and not any(matches(p, subject) for p in rule.deny)


def test_every_subject_the_league_uses_is_allowed_to_its_users_only() -> None:
    from services.engine.app import HANDLERS

    ns = Namespace("t1")
    asks = {"command": {"gateway", "matchmaking"}, "view": {"gateway"}, "legal": {"gateway"}, "abandon": set()}
    uses = [(ns.engine("vortex-1", verb), asks[verb], {"engine"}) for verb in HANDLERS]  # abandon: the admin only
    uses += [(ns.command("rng", verb), {"engine"}, {"rng"}) for verb in ("create", "create_many", "client_seed",
                                                                         "draw")]
    uses += [(ns.command("matchmaking", verb), {"gateway"}, {"matchmaking"}) for verb in ("create", "queue.join")]
    uses += [(ns.game_changed("vortex-1"), {"engine"}, {"gateway"}),
             (ns.game_watched("vortex-1"), {"gateway"}, {"engine"}),
             (ns.events_appended, {"engine", "rng", "matchmaking", "gateway"},
              {"relay", "rng", "engine", "matchmaking", "standings", "gateway"}),
             (ns.tokens_revoked, {"gateway"}, {"gateway"}),
             (ns.event_subject("vortex", "vortex-1"), {"relay"}, {"public", "auditor"}),
             (ns.private_event_subject("phantoms", "phantoms-1"), {"relay"}, {"auditor"})]
    users = ("relay", "rng", "engine", "matchmaking", "standings", "gateway", "public", "auditor")
    for subject, publishers, subscribers in uses:
        for user in users:
            assert may(user, "publish", subject) == (user in publishers), (user, "publish", subject)
            assert may(user, "subscribe", subject) == (user in subscribers), (user, "subscribe", subject)


def test_each_user_reads_replies_on_its_own_inbox_only() -> None:
    ns = Namespace("t1")
    for user in ("engine", "gateway", "public"):
        assert may(user, "subscribe", f"{ns.inbox(user)}.abc")
        assert not may(user, "subscribe", f"{ns.inbox('matchmaking')}.abc")
        assert not may(user, "publish", f"{ns.inbox('matchmaking')}.abc")


def test_a_user_with_nothing_to_publish_is_denied_everything() -> None:
    standings = permissions_for("standings", ["t1"])
    assert standings.publish.deny == [">"] and not may("standings", "publish", "anything.at.all")


def test_the_permissions_follow_the_prefix() -> None:
    assert may("engine", "subscribe", "t1.league.engine.p3.command")
    assert not may("engine", "subscribe", "t2.league.engine.p3.command")
    assert may("engine", "subscribe", "league.engine.p3.command", prefix="")


def test_only_responders_may_answer_and_every_family_has_someone_on_both_ends() -> None:
    for access in ACCESS:
        assert access.publish and access.subscribe, access.pattern
    assert permissions_for("engine", ["t1"]).allow_responses and permissions_for("rng", ["t1"]).allow_responses
    assert not permissions_for("gateway", ["t1"]).allow_responses
    assert not permissions_for("public", ["t1"]).allow_responses
