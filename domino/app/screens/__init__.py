"""The screens, one module per family: lobby (loading, toolbar, new game), table (the game, the hand-off), results, dialogs."""
