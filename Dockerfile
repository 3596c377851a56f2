# Tessera: one image for API nodes and workers (`tessera serve --role api|worker`).
# Build:  docker build -t tessera .
# Run:    docker run -e DATABASE_URL=postgres://… -e SECRET=… -p 8000:8000 tessera

# --- build: every workspace's dependencies, the API (tsc) and the web app (vite) ---
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
COPY packages/sdk/package.json packages/sdk/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# --- production dependencies only ---
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
COPY packages/sdk/package.json packages/sdk/
RUN npm ci --omit=dev --no-audit --no-fund

# --- runtime: the built API, its migrations, the built web app; no compiler, no sources ---
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8000 \
    DATA_DIR=/var/lib/tessera
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=deps /app/package.json ./package.json
COPY --from=build /app/apps/api/package.json ./apps/api/package.json
COPY --from=build /app/apps/api/bin ./apps/api/bin
COPY --from=build /app/apps/api/dist ./apps/api/dist
COPY --from=build /app/apps/api/migrations ./apps/api/migrations
COPY --from=build /app/apps/web/dist ./apps/web/dist
# The image's own user (uid 10001), never root; DATA_DIR is the only place it writes.
RUN groupadd --system --gid 10001 tessera \
 && useradd --system --uid 10001 --gid tessera --home-dir /var/lib/tessera --shell /usr/sbin/nologin tessera \
 && mkdir -p /var/lib/tessera/storage \
 && chown -R tessera:tessera /var/lib/tessera
USER 10001:10001
EXPOSE 8000
# Liveness of the process (the load balancer and Kubernetes use /readyz for traffic). A worker has no
# HTTP server: compose and Kubernetes turn this check off for workers.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM drains (docs/operations.md); node is PID 1 and handles it itself.
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "apps/api/bin/tessera.js"]
CMD ["serve", "--role", "api"]
