# The bot alone (requirements-bot.txt, no demo), run by a non-root user; settings come from the
# environment only (no .env is copied in). See "Run it with Docker" in README.md.
#
#   docker build -t tictactoe-bot .
#   docker run -d -e DISCORD_TOKEN -v tictactoe-data:/data tictactoe-bot
#
# PYTHON_IMAGE: an official python slim image by default; any image with python3 (3.11 or newer)
# and its venv module works, e.g. Debian bookworm with python3 and python3-venv, which the tests
# build from.
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS build
# Binary wheels only: neither stage needs a compiler, and a package without a wheel for the
# platform stops the build here.
COPY requirements-bot.txt /tmp/requirements-bot.txt
RUN python3 -m venv /opt/tictactoe/venv \
    && /opt/tictactoe/venv/bin/python -m pip install --no-cache-dir --only-binary=:all: \
        -r /tmp/requirements-bot.txt \
    && /opt/tictactoe/venv/bin/python -m pip uninstall --yes --quiet pip setuptools

FROM ${PYTHON_IMAGE}
LABEL org.opencontainers.image.title="tictactoe-bot" \
      org.opencontainers.image.description="A self-hosted Discord bot that plays tic-tac-toe perfectly"
# A fresh named volume at /data takes this directory's owner, so the bot can write there.
RUN useradd --system --no-log-init --user-group --uid 10001 --home-dir /opt/tictactoe \
        --no-create-home --shell /usr/sbin/nologin tictactoe \
    && mkdir /data \
    && chown tictactoe:tictactoe /data
COPY --from=build /opt/tictactoe/venv /opt/tictactoe/venv
WORKDIR /opt/tictactoe/app
COPY bot bot
COPY tictactoe tictactoe
RUN /opt/tictactoe/venv/bin/python -m compileall -q bot tictactoe
# METRICS_PORT serves /healthz (and /metrics) for the health check below; METRICS_HOST lets
# Prometheus in a neighbouring container scrape it when the port is published or networked.
ENV PATH=/opt/tictactoe/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    DATA_DIR=/data \
    METRICS_PORT=9100 \
    METRICS_HOST=0.0.0.0
VOLUME ["/data"]
EXPOSE 9100
# Numeric, so that a host (Kubernetes runAsNonRoot) can tell it is not root.
USER 10001:10001
# Healthy once every shard of the bot is ready and finished games are being recorded: /healthz
# answers 200, and urlopen raises (exit 1) on its 503 or on no answer. Python, as curl is not
# in the image.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ['METRICS_PORT'], timeout=4)"]
# SIGTERM (docker stop) closes the gateway cleanly: exit code 0.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
