# Builds the livegate binary in Swift's image, then runs it on a slim Debian with only the C libraries
# it links (libpq, libcurl, OpenSSL, jemalloc), and the resource bundles beside it (migrations, the dashboard).
# Hummingbird 2.28 needs Swift tools 6.2 or later.
FROM swift:6.3-bookworm AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends pkg-config libpq-dev libcurl4-openssl-dev libssl-dev libjemalloc-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY schema ./schema
COPY Tests ./Tests
RUN swift build -c release --product livegate --static-swift-stdlib \
    && mkdir /out \
    && cp "$(swift build -c release --show-bin-path)/livegate" /out/ \
    && cp -R "$(swift build -c release --show-bin-path)/livegate_LiveGateSchema.resources" /out/ \
    && cp -R "$(swift build -c release --show-bin-path)/livegate_LiveGateAPI.resources" /out/

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends libpq5 libcurl4 libssl3 libjemalloc2 ca-certificates tzdata \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 livegate
COPY --from=build /out/ /app/
USER livegate
EXPOSE 8080
ENV LIVEGATE_HOST=0.0.0.0 LIVEGATE_PORT=8080
ENTRYPOINT ["/app/livegate"]
CMD ["serve"]
