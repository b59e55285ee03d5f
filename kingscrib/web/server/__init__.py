"""The server itself: the app factory and its settings, the HTTP edge, limits, connections,
proxies, outages, health, metrics, logs and the routes' shared dependencies."""
