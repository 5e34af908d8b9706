"""Readings: where the seeds can be read two ways, the one RULES.md chose. A refusal that touches one says it, by
id, so a player who disagrees sees what was decided and where (``docs/rules-readings.md`` lists them all)."""

from __future__ import annotations

from shared.games.phantoms.state import Season

WHERE = "RULES.md, Phantoms of the Ice and Power Play"
READINGS: dict[str, str] = {
    "poti.injury.draft": "an injured player is replaced by the Draft procedure itself: he goes to the bottom of his "
                         "pile and the top card comes back, so he can return later in the season",
    "powerplay.injury.out-for-season": "an injured player is out for the season (set aside for good) and the top "
                                       "card of his pile replaces him",
    "powerplay.rumpelstockchen.highest": "Rumpelstockchen forces the opponent's highest card including the one taken "
                                         "back, so against a card already his highest nothing changes (values as in "
                                         "this round, ties by lowest card id)",
    "powerplay.jolly-judge.claim-again": "the Jolly Judge's manager may claim a game his team tied and played him in "
                                         "after regulation, and again after each goalless sudden-death game",
    "powerplay.tiebreak.knockout-byes": "a knockout tie-breaker for second place seeds by regular-season goals: the "
                                        "top scorer has a bye in the first round and again while an odd number is "
                                        "left; with four tied the first and the third have byes and the second plays "
                                        "the fourth",
}


def reading(rule: str) -> str:
    """The sentence a refusal ends with: ``(reading <id>, RULES.md ...: <what it says>)``."""
    return f"(reading {rule}, {WHERE}: {READINGS[rule]})"


def injury_rule_id(s: Season) -> str:
    return "poti.injury.draft" if s.injury_rule == "draft" else "powerplay.injury.out-for-season"


def injured_note(s: Season, card: str) -> str:
    """Why an injured card a manager names is not on his team any more, or '' for a card never injured."""
    if card not in s.injuries:
        return ""
    holder = next((seat for seat, m in enumerate(s.managers) if card in m.cards), None)
    if holder is not None:
        where = f"came back from his pile: seat {holder} drew him"
    elif card in s.out:
        where = "is out for the season"
    elif any(card in pile for pile in s.piles):
        where = f"went to the bottom of the {s.cards[card].position} pile"
    else:
        where = "was replaced"
    return f"; {card} was injured and {where} {reading(injury_rule_id(s))}"
