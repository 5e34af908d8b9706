// Commands and events in plain words: the labels of the play page's move buttons and the replay viewer's lines.
import { MONSTERS } from "./vortex.js";
import { PLAYS } from "./hockey.js";

const REGION = { outer: "Outer Grounds", courtyard: "Courtyard", temple: "Temple" };
const PILE = { F: "forwards", D: "defensemen", G: "goalies" };
const TEAM = ["home", "away"];
const monster = (kind) => (MONSTERS[kind] ? MONSTERS[kind].name : kind);
const spiralOf = (stone, region) => `${region === "courtyard" ? "purple" : "orange"} spiral at stone ${stone}`;

/** `who(seat)`: a seat's name; `card(id)`: a Phantoms card's printed name. */
export function commandText(command, { who = (s) => `seat ${s + 1}`, card = (id) => id, spiralRegion = null } = {}) {
  const c = command;
  switch (c.type) {
    case "vortex.Roll": return "Roll the die";
    case "vortex.ChooseDirection": return c.direction === "clockwise" ? "Walk clockwise" : "Walk counter-clockwise";
    case "vortex.ChooseSpiral": return `Go to the ${spiralOf(c.stone, spiralRegion)}`;
    case "vortex.TryVortex": return "Try for the Vortex (1-2 wins)";
    case "vortex.DeclineVortex": return "Leave the Vortex alone";
    case "vortex.RollRecall": return "Roll to recall the monsters from limbo";
    case "vortex.PlaceMonster": return `Place the ${monster(c.monster)} on ${c.headstone}`;
    case "vortex.MoveMonster": return `Move the monster to ${c.headstone}`;
    case "vortex.KeepMonster": return "Keep the monster where it is";
    case "hockeydice.Roll": return "Roll the dice";
    case "hockeydice.UsePowerChip": return "Use the Power Chip (hand it over, win the roll)";
    case "hockeydice.KeepPowerChip": return "Keep the Power Chip";
    case "hockeydice.RerollWithPowerChip": return `Reroll dice ${c.dice.join(", ")} with the Power Chip`;
    case "hockeydice.ChoosePlay": return PLAYS[c.play] ? PLAYS[c.play][0].toUpperCase() + PLAYS[c.play].slice(1) : c.play;
    case "hockeydice.Shoot": return "Take the shoot-out shot";
    case "phantoms.TakeFromPile": return `Take the top card of the ${PILE[c.pile]}`;
    case "phantoms.Trade": return `Trade with ${who(c.opponent)}`;
    case "phantoms.PickTradeCard": return `Pick face-down card ${c.index}`;
    case "phantoms.ReturnCard": return `Give back ${card(c.card)}`;
    case "phantoms.Draft": return `Draft: put back ${card(c.card)}, take the top card`;
    case "phantoms.Challenge": return `Play a game against ${who(c.opponent)}`;
    case "phantoms.FieldTeam": return `Field ${c.cards.map(card).join(", ")}`;
    case "phantoms.ChooseCard": return `Play ${card(c.card)}`;
    case "phantoms.FlipPile": return c.pile ? `Sitting Bull: flip the ${PILE[c.pile]}` : "Sitting Bull: do not flip";
    case "phantoms.ClaimWin": return c.claim ? "Jolly Judge: claim the win" : "Go to sudden death";
    case "phantoms.Rest": return `Rest ${c.cards.map(card).join(", ")}`;
    case "phantoms.TimeOut": return "Time ran out: the default bot moves";
    default: return c.type;
  }
}

export function eventText(type, d, { who = (s) => `seat ${s + 1}`, card = (id) => id } = {}) {
  if (!d) return null;
  switch (type) {
    case "engine.GameOpened": return `Game opened for ${d.seats} seats${d.commitment ? `; seed commitment ${d.commitment.slice(0, 16)}…` : ""}`;
    case "engine.GameStarted": return `Client seeds in from seats ${(d.seeded_seats || []).map((s) => s + 1).join(", ") || "none"}`;
    case "engine.ClientSeedGiven": return `${who(d.seat)} gave a client seed`;
    case "engine.GameEnded": return `Game over: ${(d.winners || []).map(who).join(", ") || "nobody"} won`;
    case "vortex.GameStarted": return `The phantoms start on the green spirals (stones ${d.starts.join(", ")})`;
    case "vortex.Rolled": return `${who(d.seat)} rolled ${d.value}`;
    case "vortex.PhantomMoved": return `${who(d.seat)} moved ${d.steps} ${d.direction} to ${REGION[d.region]} ${d.stone}`;
    case "vortex.CoinsCollected": return `${who(d.seat)} collected ${d.amount} coins (now ${d.coins})`;
    case "vortex.Dug": return `${who(d.seat)} dug (rolled ${d.roll}): ${d.found ? "found the coins" : "nothing"} (now ${d.coins})`;
    case "vortex.MonsterBattled": return `${who(d.seat)} battled ${who(d.owner)}'s ${monster(d.monster)} (rolled ${d.roll}): ` +
      `${d.won ? "won" : "lost"} (now ${d.coins} coins)`;
    case "vortex.SentinelIgnored": return `The Sentinel ignores ${who(d.seat)} (${d.coins} coins, under 6)`;
    case "vortex.SentinelBattled": return `${who(d.seat)} battled the ${REGION[d.region]} Sentinel (rolled ${d.roll}): ` +
      `${d.won ? "won" : "lost"} (now ${d.coins} coins)`;
    case "vortex.VortexTried": return `${who(d.seat)} tried for the Vortex (rolled ${d.roll}): ${d.outcome === "mastered" ?
      "mastered it!" : `knocked back to an ${d.outcome} spiral`}`;
    case "vortex.VortexDeclined": return `${who(d.seat)} left the Vortex alone`;
    case "vortex.PhantomTransported": return `${who(d.seat)} transported to ${REGION[d.region]} ${d.stone} (now ${d.coins} coins)`;
    case "vortex.RecallRolled": return `${who(d.seat)} rolled ${d.roll} to recall: ${d.recalled ? "the monsters are back" : "they stay in limbo"}`;
    case "vortex.MonsterPlaced": return `${who(d.seat)} placed the ${monster(d.monster)} on ${d.headstone}`;
    case "vortex.MonsterMoved": return `${who(d.seat)} moved the ${monster(d.monster)} from ${d.start} to ${d.headstone}`;
    case "vortex.MonsterKept": return `${who(d.seat)} kept the ${monster(d.monster)} on ${d.headstone}`;
    case "vortex.TurnEnded": return `Turn passes to ${who(d.next_seat)} (round ${d.round})`;
    case "vortex.RaceEnded": return `Race over: ${d.winners.map(who).join(", ")} ${d.reason === "vortex" ? "mastered the Vortex" :
      "furthest in when the rounds ran out"}`;
    case "hockeydice.GameStarted": return `Face-off: ${d.team_dice} dice a team`;
    case "hockeydice.PowerChipTossed": return `${who(d.holder)} wins the toss and the Power Chip`;
    case "hockeydice.ContestRolled": return `Both teams rolled: ${who(0)} ${d.home.join(" ")} · ${who(1)} ${d.away.join(" ")}`;
    case "hockeydice.PowerChipUsed": return `${who(d.seat)} used the Power Chip`;
    case "hockeydice.PowerChipKept": return `${who(d.seat)} kept the Power Chip`;
    case "hockeydice.PowerChipRerolled": return `${who(d.seat)} rerolled dice ${d.dice.join(", ")} with the Power Chip`;
    case "hockeydice.RollWon": return `${who(d.seat)} won the roll`;
    case "hockeydice.PlayChosen": return `${who(d.seat)}: ${PLAYS[d.play] || d.play}`;
    case "hockeydice.PuckMoved": return `The puck moves to ${d.to === 0 ? "centre ice" : `${d.to > 0 ? "the away" : "the home"} half, section ${Math.abs(d.to)}`}`;
    case "hockeydice.PenaltyCalled": return `Penalty against ${who(d.against)}: one die fewer`;
    case "hockeydice.FreeRerolled": return `${who(d.seat)} rerolled the checks: ${d.faces.join(" ")}`;
    case "hockeydice.ShotRolled": return `${who(d.shooter)} shoots: ${d.faces.filter((f) => f === "stick").length} sticks ` +
      `${d.modifier >= 0 ? "+" : ""}${d.modifier} vs goaltender ${d.goalie}`;
    case "hockeydice.ShotCounted": return `${d.goal ? "GOAL" : "No goal"} for ${who(d.shooter)} (${String(d.reason).replaceAll("-", " ")})`;
    case "hockeydice.PeriodEnded": return `End of period ${d.period}: ${d.next === "final" ? "final" : `next ${d.next}`}`;
    case "hockeydice.GameEnded": return `Final ${d.score[0]}–${d.score[1]}: ${who(d.winner)} wins (${d.decided_in})`;
    case "phantoms.SeasonOpened": return `Season opened: ${d.edition === "poti" ? "Phantoms of the Ice" : "Power Play"}, ${d.seats} managers`;
    case "phantoms.OpeningPickMade": return `${who(d.seat)} draws from the ${PILE[d.pile]}`;
    case "phantoms.TurnStarted": return `${who(d.seat)}'s turn`;
    case "phantoms.TradeStarted": return `${who(d.seat)} trades with ${who(d.opponent)}`;
    case "phantoms.TradeCardPicked": return `${who(d.seat)} picks face-down card ${d.index}`;
    case "phantoms.TradeCompleted": return `Trade done between ${who(d.seat)} and ${who(d.opponent)}`;
    case "phantoms.DraftMade": return `${who(d.seat)} drafts from the ${PILE[d.pile]}`;
    case "phantoms.Challenged": return `${who(d.seat)} challenges ${who(d.opponent)}`;
    case "phantoms.GameStarted": return `Game: ${who(d.home)} (home) against ${who(d.away)} — ${d.kind}`;
    case "phantoms.LineupReady": return `${who(d.seat)} has fielded a line-up`;
    case "phantoms.CardLaidDown": return `${who(d.seat)} lays a card face down`;
    case "phantoms.CardsRevealed": return `Revealed: ${card(d.home_card)} against ${card(d.away_card)}`;
    case "phantoms.CardTakenBack": return `${who(d.seat)} (Rumpelstockchen) takes back ${card(d.taken_back)}, plays ${card(d.played)}`;
    case "phantoms.PileFlipped": return `${who(d.seat)} flips ${card(d.card)} (+${d.value}) from the ${PILE[d.pile]}`;
    case "phantoms.FlipDeclined": return `${who(d.seat)} does not flip`;
    case "phantoms.RoundScored": return `${card(d.home_card)} ${d.home_value} vs ${card(d.away_card)} ${d.away_value}: ` +
      `${d.goal === null || d.goal === undefined ? "no goal" : `goal ${who(d.goal)}`}` +
      `${d.injured.length ? `; injured ${d.injured.map(card).join(", ")}` : ""}`;
    case "phantoms.WinClaimed": return `${who(d.seat)} claims the win (Jolly Judge)`;
    case "phantoms.ClaimDeclined": return `${who(d.seat)} goes to sudden death`;
    case "phantoms.InjuryReplaced": return `${who(d.seat)} replaces the injured ${card(d.injured)}`;
    case "phantoms.InjuredPlayerStays": return `${who(d.seat)}'s injured ${card(d.injured)} stays (empty pile)`;
    case "phantoms.SuddenDeathStarted": return `Sudden death ${d.block}`;
    case "phantoms.GameEnded": return `${who(d.home)} ${d.home_goals} : ${d.away_goals} ${who(d.away)}` +
      `${d.forfeit ? " (forfeit)" : ""}${d.claimed ? " (claimed)" : ""}` +
      `${d.winner === null || d.winner === undefined ? ", no winner" : ` — ${who(d.winner)} wins`}`;
    case "phantoms.PlayersRested": return `${who(d.seat)} rests ${d.cards.map(card).join(", ")}`;
    case "phantoms.MoveTimedOut": return `${who(d.seat)}'s time ran out`;
    case "phantoms.SeasonEnded": return `Regular season over: ${who(d.leader)} leads`;
    case "phantoms.ManagersEliminated": return `Out: ${d.seats.map(who).join(", ")}`;
    case "phantoms.StageStarted": return `Post-season: ${d.purpose} (${d.mode.replaceAll("_", " ")})`;
    case "phantoms.ChampionDecided": return `${who(d.seat)} is champion!`;
    default: return null;
  }
}

export function drawText(draw) {
  const r = draw.request;
  const what = r.type === "dice" ? `${r.count}d${r.faces}` : r.type === "range" ? `${r.low}..${r.high}` :
    `shuffle of ${r.n}`;
  const values = r.type === "shuffle" && draw.values.length > 12 ?
    `[${draw.values.slice(0, 12).join(", ")}, …]` : `[${draw.values.join(", ")}]`;
  return `#${draw.nonce} ${what} → ${values}`;
}

export function spiralRegionOf(view) {
  return view && view.spiral === "purple" ? "courtyard" : "temple";
}

export { TEAM };
