from services.standings.app import build
from services.standings.settings import StandingsSettings
from shared.service.app import run_service

if __name__ == "__main__":
    run_service("standings", StandingsSettings, build)
