from services.engine.app import build
from services.engine.settings import EngineSettings
from shared.service.app import run_service

if __name__ == "__main__":
    run_service("engine", EngineSettings, build)
