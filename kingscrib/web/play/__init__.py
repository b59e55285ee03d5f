"""The live game: rooms and their hub, the hosted games' adapters, clocks, finishing,
rematches, replays, reviews, the CPU work queue and the game's routes and websockets."""
