"""The statistics' read side: where the figures and ratings of finished games lie in Redis (the
workers write them), their periods, and the API that serves them."""
