"""mcts-tournament: plays engines that speak the mcts-engine protocol against each other."""
