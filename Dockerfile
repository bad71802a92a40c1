# syntax=docker/dockerfile:1
# The server's image: the SPA built in the build stage, production dependencies installed in their own stage,
# and a runtime stage that runs as the unprivileged `node` user. How it was checked: docs/deploy.md.

# Build: every dependency, then the web app (dist/) and the pre-token-generation Lambda (dist-lambdas/).
FROM node:20-bookworm-slim AS build
# better-sqlite3 compiles itself where no prebuilt binary is at hand.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm run build:lambdas

# Production dependencies only (the server runs TypeScript through tsx, a production dependency).
FROM node:20-bookworm-slim AS deps
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=8080 \
    DATA_DIR=/var/lib/divilo \
    NODE_EXTRA_CA_CERTS=/etc/ssl/certs/rds-global-bundle.pem
# Amazon RDS's certificate authorities: the server connects to PostgreSQL with sslmode=verify-full.
ADD --chmod=644 https://truststore.pki.rds.amazonaws.com/global/global-bundle.pem /etc/ssl/certs/rds-global-bundle.pem
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json package-lock.json tsconfig.json ./
COPY server ./server
COPY src ./src
COPY locales ./locales
COPY public ./public
COPY scripts/admin.ts ./scripts/admin.ts
COPY docker/start.sh ./docker/start.sh
# The bank's contract templates (es.json, en.json), given as a build context:
#   docker build --build-context contract-templates=<folder> .
# Without it the build stops: production never runs on the sample contract.
COPY --from=contract-templates --chown=root:root . /app/contract-templates
RUN mkdir -p /var/lib/divilo && chown node:node /var/lib/divilo
USER node
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The server by default; `scripts/admin.ts list` (the bank's review) as a one-off task's command.
ENTRYPOINT ["/app/docker/start.sh"]
CMD ["server/server.ts"]
