"""Rule ids: the codes of rejected commands, and the names of the rules the tests check."""

from __future__ import annotations

OPTIONS_INVALID = "hockey.options.invalid"
SETUP_TWO_TEAMS = "hockey.setup.two-teams"
GAME_NOT_STARTED = "hockey.game.not-started"
GAME_OVER = "hockey.game.over"
SEAT_UNKNOWN = "hockey.seat.unknown"
TURN_NOT_PENDING = "hockey.turn.not-pending"
TURN_WRONG_COMMAND = "hockey.turn.wrong-command"
CHIP_NOT_HOLDER = "hockey.chip.not-holder"
CHIP_NO_TIE = "hockey.chip.no-tie"
CHIP_REROLL_OFF = "hockey.chip.reroll-off"
CHIP_REROLL_DICE = "hockey.chip.reroll-dice"
PLAY_NOT_AVAILABLE = "hockey.play.not-available"
SIX_STICKS_MASK = "hockey.shot.six-sticks-mask"

RULES: dict[str, str] = {
    "hockey.setup.teams": "Each team has six player dice; the defense rolls the red goaltender die on a shot.",
    "hockey.setup.puck-centre": "The puck starts at centre ice.",
    "hockey.setup.chip-toss": "A toss gives one team the Power Chip to start the game.",
    "hockey.roll.simultaneous": "Both teams roll all their dice at once.",
    "hockey.roll.play": "The symbol that appears the most on a team's dice is its play.",
    "hockey.roll.winner": "The team with the most dice showing the same symbol wins the roll.",
    "hockey.roll.own-tie": "When a team's own roll ties between symbols, it chooses its play.",
    "hockey.rink.offense": "A team is on offense when the puck is on the opponent's side of the rink.",
    "hockey.rink.defense": "A team is on defense when the puck is on its own side of the rink.",
    "hockey.rink.centre": "At centre ice (start, and after every shot) both teams roll as the offense.",
    "hockey.rink.sections": "Each half has Neutral (no shot), Point (-1), Circle (0) and Slot (+1).",
    "hockey.chip.tie": "On a tie between teams, the Power Chip holder may use it to win the roll.",
    "hockey.chip.hand-over": "A team that uses the Power Chip hands it to the opponent.",
    "hockey.chip.keep": "A holder that keeps the Power Chip on a tie lets the opponent win the roll.",
    "hockey.chart.offense-stick": "Offense Hockey Stick: advance 1 section or take a Shot on Goal.",
    "hockey.chart.defense-stick": "Defense Hockey Stick: push the puck back 1 section.",
    "hockey.chart.six-sticks": "Six Hockey Sticks in a roll is an automatic goal, counted as a shot.",
    "hockey.chart.six-sticks-any-roll": "Six Hockey Sticks score for the team that rolled them, even against a "
    "roll as strong; when both teams roll them, the tie decides which one scores.",
    "hockey.chart.offense-puck": "Saucer Pass: advance 2 sections; reaching the goal also takes a Shot on Goal.",
    "hockey.chart.defense-puck": "Defense Puck (Clear Puck): push the puck back 2 sections.",
    "hockey.chart.free-reroll": "Free Reroll: reroll the Check dice and apply the new roll, the opponent's ignored.",
    "hockey.chart.penalty": "Penalty: the opponent rolls one die fewer until the next shot or goal.",
    "hockey.penalty.stack": "Penalties stack, never below one die.",
    "hockey.shot.blue-line": "A team must be past the blue line to take a Shot on Goal.",
    "hockey.shot.sticks": "The shooter totals its Hockey Sticks, plus the section's modifier.",
    "hockey.shot.goal": "More sticks than the goaltender die is a goal.",
    "hockey.shot.blocked": "A higher goaltender die blocks the shot.",
    "hockey.shot.mask": "A mask on the goaltender die is an automatic save.",
    SIX_STICKS_MASK: "Reading (RULES.md Hockey Championship): on a Shot on Goal six Hockey Sticks beat even the "
    "goaltender's Mask - six dice showing sticks, not five plus the Slot's +1 - as the seed's French example rerolls "
    "for exactly this.",
    "hockey.shot.tie": "A tie on a shot is broken by the Power Chip.",
    "hockey.shot.after": "After any shot the puck goes back to centre ice and one shot is counted.",
    "hockey.period.length": "After five shots on goal a period ends and the shot count resets.",
    "hockey.end.regulation": "After three periods the team with more goals wins.",
    "hockey.end.overtime": "A tie after regulation plays an overtime of up to five shots; the first goal wins.",
    "hockey.end.shootout": "No overtime goal: each team takes three shots; the most goals wins.",
    "hockey.end.shootout-alternate": "A shoot-out tie goes on with alternate shots until one leads after equal shots.",
    "hockey.chip.reroll": "Advanced rule: the holder may hand over the Power Chip to reroll any of its dice.",
    "hockey.chip.reroll-tie": "Advanced rule: a team that rerolled with the chip loses a tie on that roll.",
    OPTIONS_INVALID: "Table options must describe six-faced dice and positive shot counts.",
    SETUP_TWO_TEAMS: "Hockey Championship is played by two teams.",
    GAME_NOT_STARTED: "No command before the game has started.",
    GAME_OVER: "No command after the game has ended.",
    SEAT_UNKNOWN: "Seats are 0 (home) and 1 (away).",
    TURN_NOT_PENDING: "Only a team that the game is waiting for may act.",
    TURN_WRONG_COMMAND: "A command must answer what the game is waiting for.",
    CHIP_NOT_HOLDER: "Only the team holding the Power Chip may use or keep it.",
    CHIP_NO_TIE: "The Power Chip wins a roll only when it is tied.",
    CHIP_REROLL_OFF: "Rerolling with the Power Chip needs the power_chip_reroll advanced rule.",
    CHIP_REROLL_DICE: "A Power Chip reroll names one or more of the team's own dice, each once.",
    PLAY_NOT_AVAILABLE: "A team chooses its play among the symbols it rolled the most.",
}
