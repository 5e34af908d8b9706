-- The engine records the commands it refused; it never reads or changes them.
GRANT INSERT ON rejected_commands TO league_engine;
