GRANT SELECT, INSERT, UPDATE, DELETE ON player_ratings, quickplay_waiting, quickplay_games TO league_matchmaking;
