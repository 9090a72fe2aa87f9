"""Ultimate Tic-Tac-Toe as a kind of board: nine small boards in one (tictactoe/ultimate.py)."""
