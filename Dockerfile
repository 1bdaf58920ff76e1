FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY cli ./cli
COPY domain ./domain
COPY service ./service
COPY workers ./workers
RUN pip install --no-cache-dir .
ENV ARCHIVE_DIR=/data/archive
EXPOSE 8000
CMD ["tabletape", "serve", "--host", "0.0.0.0", "--port", "8000"]
