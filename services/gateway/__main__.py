from services.gateway.app import build
from services.gateway.settings import GatewaySettings
from shared.service.app import run_service

if __name__ == "__main__":
    run_service("gateway", GatewaySettings, build)
