from tictactoe.cli import main

raise SystemExit(main())
