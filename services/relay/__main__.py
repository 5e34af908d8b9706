from services.relay.app import build
from services.relay.settings import RelaySettings
from shared.service.app import run_service

if __name__ == "__main__":
    run_service("relay", RelaySettings, build)
