from services.rng.app import build
from services.rng.settings import RngSettings
from shared.service.app import run_service

if __name__ == "__main__":
    run_service("rng", RngSettings, build)
