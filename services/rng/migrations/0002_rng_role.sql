-- Sealed seeds are written once by the RNG service and read by it alone.
GRANT SELECT, INSERT ON rng_seeds TO league_rng;
