"""``league <command>``: the common jobs of running and inspecting a league."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from shared.cli.connection import NoLeague


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="league", description=__doc__)
    root.add_argument("--data-dir", type=Path, default=Path(".data"),
                      help="the embedded league's folder (default .data)")
    commands = root.add_subparsers(dest="command", required=True)
    up = commands.add_parser("up", help="start PostgreSQL and NATS (embedded unless DATABASE_URL/NATS_URL are "
                                        "set) and every service, play a demo, and run until Ctrl-C")
    up.add_argument("--no-demo", action="store_true", help="start the league without the bots' demo games")
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
    bots = commands.add_parser("bots", help="bot players that play through the gateway like people")
    target = bots.add_mutually_exclusive_group(required=True)
    target.add_argument("--game", choices=["phantoms", "vortex", "hockeydice"], help="play one game of this")
    target.add_argument("--tournament", help="enter this tournament and play every game it gives")
    bots.add_argument("--players", type=int, required=True)
    bots.add_argument("--options", default="{}", help='table options as JSON, e.g. \'{"edition": "powerplay"}\'')
    bots.add_argument("--gateway", help="the gateway's URL (default: the league `make run` started)")
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
    try:
        match args.command:
            case "up":
                from shared.cli.up import up

                return up(args.data_dir, demo=not args.no_demo)
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

                return replay(asyncio.run(read(args.data_dir, args.stream)), args.stream, args.to, args.step)
            case "bots":
                from shared.cli.bots import bots_game, bots_tournament

                if args.tournament:
                    return asyncio.run(bots_tournament(args.data_dir, args.gateway, args.tournament, args.players))
                return asyncio.run(bots_game(args.data_dir, args.gateway, args.game, args.players, args.options))
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
