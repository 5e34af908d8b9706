"""``league <command>``: the common jobs of running and inspecting a league."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from shared.cli.connection import NoLeague
from shared.cli.league_dir import league_dir


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="league", description=__doc__)
    root.add_argument("--league-dir", "--data-dir", dest="data_dir", type=Path, default=None,
                      help="the league's folder (default: LEAGUE_DIR, else the .data of this folder or the nearest "
                           "one above with a running league, else the league `league up` started last)")
    commands = root.add_subparsers(dest="command", required=True)
    up = commands.add_parser("up", help="start PostgreSQL and NATS (embedded unless DATABASE_URL/NATS_URL are "
                                        "set) and every service, play a demo, and run until Ctrl-C")
    up.add_argument("--no-demo", action="store_true", help="start the league without the bots' demo games")
    migrate = commands.add_parser("migrate", help="as the database owner (DATABASE_URL): apply every migration and"
                                                  " create the services' logins, their passwords in SECRETS")
    migrate.add_argument("--secrets", type=Path, required=True,
                         help="the folder of the services' credentials (a login file there keeps its password)")
    made = commands.add_parser("secrets", help="make a deployed league's credentials (NATS nkeys, database logins)"
                                               " and nats-server's authorization block, once, into FOLDER")
    made.add_argument("folder", type=Path)
    made.add_argument("--database", default="league", help="the league's database name (default league)")
    made.add_argument("--prefix", default="", help="NATS_SUBJECT_PREFIX of the league (default none)")
    audit = commands.add_parser("audit", help="audit an ended game: chains, seed, draws, every move")
    target = audit.add_mutually_exclusive_group(required=True)
    target.add_argument("stream", nargs="?", help="the game's stream id, e.g. vortex-1a2b...")
    target.add_argument("--bundle", type=Path, help="an exported bundle: no database or network needed")
    audit.add_argument("--commitment", help="the seed commitment published when the game opened (its view shows "
                                            "it): checked too, so a seed swapped later is caught")
    export = commands.add_parser("export", help="write an ended game and its RNG stream as an audit bundle")
    export.add_argument("game_id")
    export.add_argument("-o", "--output", type=Path)
    replay = commands.add_parser("replay", help="rebuild a game to any event and show it")
    replay.add_argument("stream")
    replay.add_argument("--to", type=int, help="stop after this stream version")
    replay.add_argument("--step", action="store_true", help="show the position after each action")
    replay.add_argument("--try", dest="what_if", metavar="COMMAND_JSON",
                        help="what if: fork the game at --to and run this command instead, through the same rules, "
                             "with the real draws while they still fit and marked fresh ones after; writes nothing")
    replay.add_argument("--as", dest="as_seat", type=int, metavar="SEAT", help="the seat that sends the --try command")
    replay.add_argument("--seed", type=int, help="seed of the fresh draws a --try needs (default: a random one)")
    scenario = commands.add_parser("scenario", help="positions in a game's own terms, played through the rules")
    scenario_commands = scenario.add_subparsers(dest="scenario_command", required=True)
    scenario_run = scenario_commands.add_parser("run", help="play each scenario file and check its [expect]")
    scenario_run.add_argument("files", nargs="+", type=Path)
    scenario_run.add_argument("-q", "--quiet", action="store_true", help="print only each scenario's verdict")
    bots = commands.add_parser("bots", help="bot players that play through the gateway like people")
    target = bots.add_mutually_exclusive_group(required=True)
    target.add_argument("--game", choices=["phantoms", "vortex", "hockeydice"], help="play one game of this")
    target.add_argument("--tournament", help="enter this tournament and play every game it gives")
    bots.add_argument("--players", type=int, required=True)
    bots.add_argument("--options", default="{}", help='table options as JSON, e.g. \'{"edition": "powerplay"}\'')
    bots.add_argument("--gateway", help="the gateway's URL (default: the league `make run` started)")
    abandon = commands.add_parser("abandon", help="stop a running game with nobody winning (recorded as "
                                                  "engine.GameAbandoned; a tournament goes on without it)")
    abandon.add_argument("game_id")
    abandon.add_argument("--reason", required=True, help="why, in a sentence: it is recorded in the game")
    verify = commands.add_parser("verify", help="check the whole log: every stream's hash chain, every event "
                                               "against JetStream's copy, the notary's signed checkpoints, every "
                                               "revealed game's end")
    verify.add_argument("streams", nargs="*", help="check only these streams' chains, ends and JetStream copies "
                                                   "(the signed checkpoints always cover the whole log)")
    verify.add_argument("--checkpoints", type=Path, help="a referee's copy of the signed checkpoints (league "
                                                         "checkpoints -o FILE): each must still be in the log")
    verify.add_argument("--public-key", help="the notary's Ed25519 public key (hex) the checkpoints must be signed "
                                             "with (default: the first checkpoint's)")
    verify.add_argument("--no-jetstream", action="store_true", help="do not compare with JetStream's copy")
    verify.add_argument("--relay-checkpoint", default="relay", help="the relay whose checkpoint says which events "
                                                                    "JetStream must hold (default relay)")
    kept = commands.add_parser("checkpoints", help="the notary's signed checkpoints of the log, as JSON lines, "
                                                   "for a referee to keep")
    kept.add_argument("-o", "--output", type=Path)
    # -- standings: league rebuild --
    rebuild = commands.add_parser("rebuild", help="rebuild standings projections from position zero and swap them in")
    rebuild.add_argument("projection", help="seasons, tournaments, leaderboards, ratings, boards, counters, or all")
    rebuild.add_argument("--compare-only", action="store_true", help="rebuild and compare, keep the serving tables")
    return root


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    args.data_dir = league_dir(args.data_dir, starting=args.command == "up")
    try:
        match args.command:
            case "up":
                from shared.cli.up import up

                return up(args.data_dir, demo=not args.no_demo)
            case "migrate":
                from shared.cli.migrate import migrate_command

                return asyncio.run(migrate_command(args.secrets))
            case "secrets":
                from shared.cli.secrets import secrets_command

                return secrets_command(args.folder, args.database, args.prefix)
            case "audit":
                from shared.cli.audit import audit_bundle, audit_stream

                if args.bundle:
                    return audit_bundle(args.bundle, args.commitment)
                return asyncio.run(audit_stream(args.data_dir, args.stream, args.commitment))
            case "export":
                from shared.cli.audit import export

                return asyncio.run(export(args.data_dir, args.game_id, args.output))
            case "replay":
                from shared.cli.replay import read, replay

                events = asyncio.run(read(args.data_dir, args.stream))
                if args.what_if is not None:
                    from shared.cli.whatif import what_if

                    return what_if(events, args.stream, args.to, args.what_if, args.as_seat, args.seed)
                return replay(events, args.stream, args.to, args.step)
            case "scenario":
                from shared.cli.scenario import scenario_run

                return scenario_run(args.files, args.quiet)
            case "bots":
                from shared.cli.bots import bots_game, bots_tournament

                if args.tournament:
                    return asyncio.run(bots_tournament(args.data_dir, args.gateway, args.tournament, args.players))
                return asyncio.run(bots_game(args.data_dir, args.gateway, args.game, args.players, args.options))
            case "abandon":
                from shared.cli.abandon import abandon_command

                return asyncio.run(abandon_command(args.data_dir, args.game_id, args.reason))
            case "verify":
                from shared.cli.verify import verify_command

                return asyncio.run(verify_command(args.data_dir, checkpoints=args.checkpoints,
                                                  public_key=args.public_key, jetstream=not args.no_jetstream,
                                                  relay_checkpoint=args.relay_checkpoint, streams=args.streams))
            case "checkpoints":
                from shared.cli.verify import checkpoints_command

                return asyncio.run(checkpoints_command(args.data_dir, args.output))
            case "rebuild":  # standings
                from shared.cli.rebuild import rebuild_command

                return asyncio.run(rebuild_command(args.data_dir, args.projection, swap=not args.compare_only))
    except NoLeague as error:
        print(f"league: {error}", file=sys.stderr)
        return 2
    return 2


if __name__ == "__main__":
    sys.exit(main())
