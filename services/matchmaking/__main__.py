from services.matchmaking.app import build
from services.matchmaking.settings import MatchmakingSettings
from shared.service.app import run_service

if __name__ == "__main__":
    run_service("matchmaking", MatchmakingSettings, build)
