"""The Flask application factory, and the wiring of the service's parts that the CLI shares."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import redis
from flask import Flask
from flask_smorest import Api

import domain  # registers every game
from service.api.append_route import AppendRoute
from service.api.body_deadline import BodyDeadlines
from service.api.docs import docs_assets
from service.api.flask_app import TabletapeFlask
from service.api.game_shapes import register_game_components
from service.api.health import health
from service.api.imports import imports
from service.api.limits import init_rate_limits
from service.api.paths import (
    GameIdConverter,
    PlayerNameConverter,
    game_id_parameter_schema,
    name_parameter_schema,
)
from service.api.requests import refuse_bodies_over_the_limit, refuse_bodies_that_are_not_json
from service.api.schemas import ErrorSchema
from service.api.stream import stream
from service.api.strict import refuse_unknown_query_parameters
from service.api.tournaments import tournaments
from service.api.views import WRITE_KEY_SCHEME, adding_games_needs_the_write_key, games
from service.config import load_config
from service.errors import register_error_handlers
from service.games import GameService
from service.nights.api import nights
from service.pages.views import pages
from service.players.api import players
from service.plugins import load_games
from service.signing.keys import KeyRing, key_path, signer_name
from service.stats.api import stats
from service.store.archive import Archive
from service.store.connection import StoreClient, connect, same_server
from service.store.durability import check_durability
from service.store.embedded import ensure_embedded_redis
from service.store.events import EventStore
from service.store.queue import ArchiveQueue
from service.store.snapshots import SnapshotStore
from service.tournaments.store import TournamentStore
from service.tournaments.tournaments import Tournaments


class TabletapeApi(Api):
    # Errors are answered by service.errors in the contract's shape, not flask-smorest's.
    ERROR_SCHEMA = ErrorSchema

    def _register_error_handlers(self) -> None:
        pass


@dataclass(frozen=True)
class Services:
    # The store's client: a plain Redis or a cluster (service.store.connection).
    client: StoreClient
    store: EventStore
    games: GameService
    archive_queue: ArchiveQueue


def build_services(settings: Mapping[str, Any]) -> Services:
    load_games(settings["GAMES"])
    client = settings.get("REDIS_CLIENT") or redis_client(settings)
    own_server = not settings.get("REDIS_CLIENT") and not settings["REDIS_URL"]
    check_durability(client, settings["DURABILITY"], own_server=own_server)
    store = EventStore(
        client, prefix=settings["KEY_PREFIX"], replica_wait_ms=settings["REPLICA_WAIT_MS"]
    )
    # The key that signs heads: SIGNING_KEY, else the one `tabletape serve` keeps in DATA_DIR
    # (read when first needed: a service without one yet answers everything but its notes).
    signing = KeyRing(key_path(settings), signer_name(settings["SIGNER_NAME"]))
    archive_queue = ArchiveQueue(
        queue_connection(settings, client),
        settings["KEY_PREFIX"],
        settings["ARCHIVE_DIR"],
        trim=settings["ARCHIVE_TRIM"],
        signing_key=str(signing.path),
        signer_name=signing.name,
    )
    game_service = GameService(
        store,
        Archive(settings["ARCHIVE_DIR"]),
        state_cache_size=settings["STATE_CACHE_SIZE"],
        snapshots=SnapshotStore(client, settings["KEY_PREFIX"]),
        snapshot_every=settings["SNAPSHOT_EVERY"],
        recount=archive_queue.enqueue,
        recount_many=archive_queue.enqueue_many,
        recheck_seconds=settings["CACHE_RECHECK_SECONDS"],
        signing=signing,
    )
    return Services(client, store, game_service, archive_queue)


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    settings = load_config(config)
    # Before anything lists the games (the OpenAPI document, the pages): plugins first.
    load_games(settings["GAMES"])
    app = TabletapeFlask("tabletape")
    # A path with an empty segment (/games//x) is an unknown path: werkzeug would otherwise
    # redirect it to the merged path, building the Location from the request's Host.
    app.url_map.merge_slashes = False
    app.config.update(settings)
    app.config.update(
        API_TITLE="Tabletape",
        API_VERSION="1",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="/docs",
        OPENAPI_SWAGGER_UI_URL="/swagger-ui/",
        API_SPEC_OPTIONS={"info": {"description": events_description()}},
    )
    services = build_services(settings)
    app.extensions["tabletape"] = services.games
    app.extensions["tabletape.redis"] = services.client
    app.extensions["tabletape.queue"] = services.archive_queue
    app.extensions["tabletape.tournaments"] = Tournaments(
        TournamentStore(services.client, settings["KEY_PREFIX"], settings["REPLICA_WAIT_MS"]),
        services.games,
    )
    app.extensions["tabletape.body_deadlines"] = BodyDeadlines(settings["BODY_SECONDS"])

    api = TabletapeApi(app)
    app.url_map.converters["name"] = PlayerNameConverter
    api.register_converter(PlayerNameConverter, name_parameter_schema)
    app.url_map.converters["game"] = GameIdConverter
    api.register_converter(GameIdConverter, game_id_parameter_schema)
    # The games' events, states and options, which the blueprints' documentation refers to.
    register_game_components(api.spec)
    api.spec.components.security_scheme("writeKey", WRITE_KEY_SCHEME)
    api.register_blueprint(games)
    api.register_blueprint(health)
    api.register_blueprint(stats)
    api.register_blueprint(players)
    api.register_blueprint(stream)
    api.register_blueprint(imports)
    api.register_blueprint(tournaments)
    api.register_blueprint(nights)
    app.register_blueprint(docs_assets)
    app.register_blueprint(pages)
    register_error_handlers(app)
    # First of the before_request functions: a body over the limit is refused before anything.
    app.before_request(refuse_bodies_over_the_limit)
    app.before_request(refuse_bodies_that_are_not_json)
    app.before_request(adding_games_needs_the_write_key)
    init_rate_limits(app, settings)
    refuse_unknown_query_parameters(app, api)
    # In front of Flask: the plain appends, answered as the view would without Flask's machinery.
    app.wsgi_app = AppendRoute(app)  # type: ignore[method-assign]
    return app


def events_description() -> str:
    """The events of every registered game, from each game's own ``event_fields``."""
    lines = [
        'Tabletape records tabletop games move by move. Every game takes `{"type": "retract"}`,'
        " which voids the latest move still standing (the record stays append-only; the"
        " recorder's retraction after the last move reopens a finished game), and"
        ' `{"type": "abandon"}`, the recorder\'s only, which ends an active game without a'
        " result: its status is then `abandoned`, nothing more may be appended, and it counts in"
        " no statistic. The events of each game:"
    ]
    for name in domain.game_names():
        lines += ["", f"### {name}", "", "| type | field | what it holds |", "| --- | --- | --- |"]
        for kind, fields in domain.get_game(name).event_fields.items():
            lines += [f"| `{kind}` | `{field}` | {what} |" for field, what in fields.items()]
    return "\n".join(lines)


# How long the service waits on Redis, in seconds: for an answer, and for a connection.
_TIMEOUTS = {"socket_timeout": 5, "socket_connect_timeout": 2}


def redis_client(settings: Mapping[str, Any]) -> StoreClient:
    """The store's client: REDIS_URL (a plain Redis, or any node of a cluster), else the
    embedded Redis. Its connections are named after the process (CLIENT LIST shows who holds
    which)."""
    url = settings["REDIS_URL"] or ensure_embedded_redis(settings["DATA_DIR"])
    return connect(
        url,
        max_connections=settings["REDIS_CONNECTIONS"],
        decode_responses=True,
        client_name=client_name(),
        **_TIMEOUTS,
    )


def client_name(pid: int | None = None) -> str:
    """The name of the Redis connections of process ``pid`` (default: this one)."""
    return f"tabletape-{pid or os.getpid()}"


def queue_connection(settings: Mapping[str, Any], store_client: StoreClient) -> redis.Redis:
    """RQ's connection, which does not decode responses: QUEUE_REDIS_URL, else the store's own
    server (which must then be a plain Redis: RQ does not run on a cluster)."""
    url = settings["QUEUE_REDIS_URL"]
    if url:
        return redis.Redis.from_url(url, decode_responses=False, **_TIMEOUTS)
    return same_server(store_client, decode_responses=False)
