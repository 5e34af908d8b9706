from __future__ import annotations

import ast
import random
import sys
from pathlib import Path

import msgspec

from shared.games.draws import SeededDraws
from shared.games.hockeydice import rules
from shared.games.hockeydice.commands import ChoosePlay, Command
from shared.games.hockeydice.options import HockeyOptions
from shared.games.hockeydice.plays import Play
from shared.games.hockeydice.rule_ids import RULES
from shared.games.hockeydice.view import HockeyView
from shared.games.rules import AnyRules, fold

from .helpers import CHECK, GOALIE_MASK, PUCK, REF, STICK, contest, dice, start

PACKAGE = Path(__file__).resolve().parents[3] / "shared" / "games" / "hockeydice"


def test_rules_object_has_the_game_interface() -> None:
    typed: AnyRules = rules
    assert typed.name == "hockeydice"
    assert rules.options_type is HockeyOptions
    assert set(rules.bots) == {"random", "greedy"}
    assert rules.initial_state() is None
    for name in ("new_game", "decide", "evolve", "view", "legal_commands", "visible_to", "pending_seats", "render"):
        assert callable(getattr(rules, name))


def test_messages_are_frozen_structs_tagged_with_the_game() -> None:
    kinds: tuple[type[msgspec.Struct], ...] = (*rules.event_types, *rules.command_types, HockeyOptions, HockeyView)
    for kind in kinds:
        config = kind.__struct_config__
        assert config.frozen, kind
        assert config.tag == f"hockeydice.{kind.__name__}", kind
    for kind in rules.command_types:
        assert "seat" in kind.__struct_fields__


def test_commands_decode_from_json_by_tag() -> None:
    decoded = msgspec.json.decode(b'{"type":"hockeydice.ChoosePlay","seat":1,"play":"saucer-pass"}', type=Command)
    assert decoded.seat == 1 and decoded.play == "saucer-pass"


def test_everything_is_public() -> None:
    state = start()
    _, state = contest(state, (PUCK,) * 4 + (STICK, CHECK), (STICK, STICK, PUCK, PUCK, CHECK, REF))
    assert rules.view(state, 0) == rules.view(state, 1) == rules.view(state, None)
    events = rules.new_game(HockeyOptions(), 2, SeededDraws(random.Random(1)))
    assert all(rules.visible_to(event) is None for event in events)


def test_render_shows_rink_puck_score_period_shots_and_chip() -> None:
    state = start(chip=1, score=(2, 1), shots_by=(4, 3), period=2, shots=3, puck=2)
    picture = rules.render(state)
    assert "HOME 2 - 1 AWAY" in picture
    assert "Period 2/3" in picture and "shot 3/5" in picture
    assert "HOME 4" in picture and "AWAY 3" in picture
    assert "Power Chip: AWAY" in picture
    assert "*point-1*" in picture and picture.count("*") == 4
    assert "Next: HOME or AWAY to roll" in picture
    _, shot = contest(
        start(puck=3),
        (PUCK,) * 4 + (STICK, CHECK),
        (STICK, STICK, PUCK, PUCK, CHECK, REF),
        dice(*(STICK,) * 3 + (PUCK,) * 3),
        dice(GOALIE_MASK),
    )
    assert "goaltender mask" in rules.render(shot)


def test_bots_always_choose_a_legal_command() -> None:
    rng = random.Random(7)
    for options in (HockeyOptions(), HockeyOptions(power_chip_reroll=True)):
        for kind in ("random", "greedy"):
            draws = SeededDraws(rng)
            state = fold(rules, rules.new_game(options, 2, draws))
            assert state is not None
            for _ in range(300):
                if rules.is_over(state):
                    break
                for seat in sorted(rules.pending_seats(state)):
                    assert rules.bots[kind](state, seat, rng) in rules.legal_commands(state, seat)
                seat = min(rules.pending_seats(state))
                for event in rules.decide(state, rules.bots[kind](state, seat, rng), draws):
                    state = rules.evolve(state, event)


def test_greedy_bot_uses_the_chip_on_a_tie_and_shoots_from_the_slot() -> None:
    rng = random.Random(0)
    _, tied = contest(start(chip=0), (STICK,) * 3 + (PUCK, CHECK, REF), (PUCK,) * 3 + (STICK, CHECK, REF))
    assert type(rules.bots["greedy"](tied, 0, rng)).__name__ == "UsePowerChip"
    sticks_and_pucks = (STICK,) * 3 + (PUCK,) * 3
    _, in_slot = contest(start(puck=4), sticks_and_pucks, (STICK, STICK, PUCK, PUCK, CHECK, REF))
    assert rules.bots["greedy"](in_slot, 0, rng) == ChoosePlay(seat=0, play=Play.SHOOT)
    _, at_point = contest(start(puck=2), sticks_and_pucks, (STICK, STICK, PUCK, PUCK, CHECK, REF))
    assert rules.bots["greedy"](at_point, 0, rng) == ChoosePlay(seat=0, play=Play.SAUCER_PASS)


def test_rules_package_imports_only_stdlib_msgspec_and_shared_games() -> None:
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                assert top in {"__future__", "msgspec", "shared"} or top in _stdlib(), (path.name, name)
                if top == "shared":
                    assert name.startswith("shared.games"), (path.name, name)


def test_every_rule_id_is_named_by_a_test() -> None:
    source = "\n".join(path.read_text() for path in Path(__file__).parent.glob("test_*.py"))
    names = {node.name for node in ast.walk(ast.parse(source)) if isinstance(node, ast.FunctionDef)}
    missing = [
        rule
        for rule in RULES
        if not any(name.startswith("test_" + rule.replace(".", "_").replace("-", "_")) for name in names)
    ]
    assert missing == []


def _stdlib() -> frozenset[str]:
    return frozenset(sys.stdlib_module_names)
