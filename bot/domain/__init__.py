"""The bot's pure core: values, decisions and looks, with no Discord I/O."""
