"""The HTTP API of the games: its views and marshmallow schemas, how a request is read, the live
streams, the rate limit and the gunicorn workers that serve it all."""
