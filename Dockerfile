# syntax=docker/dockerfile:1
# The server's image: the SPA and the programs (the server, the admin program) built into JavaScript in the build
# stage, production dependencies installed in their own stage, and a runtime stage that runs as the unprivileged
# `node` user. Its interface: `server` (the default command) or `admin <command…>` (docs/deploy.md). How it was
# checked: docs/deploy.md; __tests__/server/scripts/image.test.ts replays the runtime stage on every test run.

# Build: every dependency, then the web app (dist/), the pre-token-generation Lambda (dist-lambdas/) and the
# server and admin program (dist-server/, scripts/buildServer.mjs).
FROM node:24-bookworm-slim AS build
# better-sqlite3 compiles itself where no prebuilt binary is at hand.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm run build:lambdas && npm run build:server

# Production dependencies only: the packages the programs require() at run time (they are not bundled).
FROM node:24-bookworm-slim AS deps
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=8080 \
    DATA_DIR=/var/lib/divilo \
    NODE_EXTRA_CA_CERTS=/etc/ssl/certs/rds-global-bundle.pem
# Amazon RDS's certificate authorities: the server connects to PostgreSQL with sslmode=verify-full.
ADD --chmod=644 https://truststore.pki.rds.amazonaws.com/global/global-bundle.pem /etc/ssl/certs/rds-global-bundle.pem
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/dist-server ./dist-server
# What the programs read by path at run time (server/paths.ts): the server's data, the face detector's thread,
# the texts, and the style sheets and login font of the server's own pages.
COPY server/data ./server/data
COPY server/workers ./server/workers
COPY locales ./locales
COPY src/styles ./src/styles
COPY src/components/*.css ./src/components/
COPY --chmod=755 docker/start.sh ./docker/start.sh
# The bank's contract templates (es.json, en.json), given as a build context:
#   docker build --build-context contract-templates=<folder> .
# Without it the build stops: production never runs on the sample contract.
COPY --from=contract-templates --chown=root:root . /app/contract-templates
RUN mkdir -p /var/lib/divilo && chown node:node /var/lib/divilo
USER node
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# `server` by default; `admin list` (the bank's review, `admin --help` for the rest) as a one-off task's command.
ENTRYPOINT ["/app/docker/start.sh"]
CMD ["server"]
