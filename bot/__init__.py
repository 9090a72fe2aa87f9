"""The Discord bot: /tictactoe against the AI or a friend."""
