//! OpenTelemetry traces (cargo feature `otel`, on when
//! `OTEL_EXPORTER_OTLP_ENDPOINT` is set): spans for each request, rules
//! call, store batch and webhook attempt, exported over OTLP/HTTP; the W3C
//! `traceparent` a request brings is its span's parent, and each event keeps
//! its request's context for the webhooks it fires. Without the feature
//! these calls do nothing.

#[cfg(feature = "otel")]
mod enabled {
    use opentelemetry::propagation::{Extractor, Injector};
    use opentelemetry::trace::{TraceContextExt, TracerProvider};
    use opentelemetry_sdk::propagation::TraceContextPropagator;
    use opentelemetry_sdk::trace::SdkTracerProvider;
    use tracing_opentelemetry::OpenTelemetrySpanExt;

    /// The exporter's provider: flushes what is left at [`Tracing::shutdown`].
    pub struct Tracing(SdkTracerProvider);

    impl Tracing {
        pub fn shutdown(&self) {
            let _ = self.0.shutdown();
        }
    }

    /// The OTLP/HTTP exporter's client: reqwest on the server's runtime, so
    /// that the batch exporter's own thread can send.
    #[derive(Debug)]
    struct RuntimeClient {
        client: reqwest::Client,
        runtime: tokio::runtime::Handle,
    }

    #[async_trait::async_trait]
    impl opentelemetry_http::HttpClient for RuntimeClient {
        async fn send_bytes(
            &self,
            request: http::Request<opentelemetry_http::Bytes>,
        ) -> Result<http::Response<opentelemetry_http::Bytes>, opentelemetry_http::HttpError> {
            let client = self.client.clone();
            let sent = self.runtime.spawn(async move {
                let (parts, body) = request.into_parts();
                let mut outgoing = client.request(parts.method, parts.uri.to_string()).body(body.to_vec());
                for (name, value) in &parts.headers {
                    outgoing = outgoing.header(name, value);
                }
                let response = outgoing.send().await?;
                let status = response.status();
                let bytes = response.bytes().await?;
                Ok::<_, reqwest::Error>((status, bytes))
            });
            let (status, bytes) = sent.await??;
            let mut response = http::Response::new(opentelemetry_http::Bytes::from(bytes.to_vec()));
            *response.status_mut() = status;
            Ok(response)
        }
    }

    /// The layer that exports a subscriber's spans.
    pub type ExportLayer<S> = tracing_opentelemetry::OpenTelemetryLayer<S, opentelemetry_sdk::trace::Tracer>;

    /// The tracing layer that exports spans, when `OTEL_EXPORTER_OTLP_ENDPOINT` is set.
    pub fn layer<S>() -> Result<Option<(ExportLayer<S>, Tracing)>, String>
    where
        S: tracing::Subscriber + for<'span> tracing_subscriber::registry::LookupSpan<'span>,
    {
        if std::env::var("OTEL_EXPORTER_OTLP_ENDPOINT").map_or(true, |v| v.is_empty()) {
            return Ok(None);
        }
        use opentelemetry_otlp::{WithExportConfig, WithHttpConfig};
        let client = RuntimeClient {
            client: reqwest::Client::builder().timeout(std::time::Duration::from_secs(10)).build().map_err(|e| e.to_string())?,
            runtime: tokio::runtime::Handle::try_current().map_err(|e| e.to_string())?,
        };
        let exporter = opentelemetry_otlp::SpanExporter::builder()
            .with_http()
            .with_protocol(opentelemetry_otlp::Protocol::HttpBinary)
            .with_http_client(client)
            .build()
            .map_err(|e| format!("the OTLP exporter could not start: {e}"))?;
        let resource = opentelemetry_sdk::Resource::builder().with_service_name("compliance-gateway").build();
        let provider = SdkTracerProvider::builder().with_batch_exporter(exporter).with_resource(resource).build();
        opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());
        let tracer = provider.tracer("compliance-gateway");
        Ok(Some((tracing_opentelemetry::layer().with_tracer(tracer), Tracing(provider))))
    }

    struct Headers<'a>(&'a http::HeaderMap);

    impl Extractor for Headers<'_> {
        fn get(&self, key: &str) -> Option<&str> {
            self.0.get(key).and_then(|v| v.to_str().ok())
        }
        fn keys(&self) -> Vec<&str> {
            self.0.keys().map(http::HeaderName::as_str).collect()
        }
    }

    struct Pairs<'a>(&'a [(String, String)]);

    impl Extractor for Pairs<'_> {
        fn get(&self, key: &str) -> Option<&str> {
            self.0.iter().find(|(name, _)| name.eq_ignore_ascii_case(key)).map(|(_, value)| value.as_str())
        }
        fn keys(&self) -> Vec<&str> {
            self.0.iter().map(|(name, _)| name.as_str()).collect()
        }
    }

    struct Collected(Vec<(String, String)>);

    impl Injector for Collected {
        fn set(&mut self, key: &str, value: String) {
            self.0.push((key.to_string(), value));
        }
    }

    /// Makes the `traceparent` a request brought the parent of its span.
    pub fn set_parent_from_request(span: &tracing::Span, headers: &http::HeaderMap) {
        let parent = opentelemetry::global::get_text_map_propagator(|p| p.extract(&Headers(headers)));
        if parent.span().span_context().is_valid() {
            let _ = span.set_parent(parent);
        }
    }

    /// Makes an outgoing webhook's stored `traceparent` the parent of its
    /// attempt's span, then sends the attempt's own context in its place.
    pub fn continue_outgoing(span: &tracing::Span, headers: &[(String, String)]) -> Vec<(String, String)> {
        let parent = opentelemetry::global::get_text_map_propagator(|p| p.extract(&Pairs(headers)));
        if parent.span().span_context().is_valid() {
            let _ = span.set_parent(parent);
        }
        let mut injected = Collected(Vec::new());
        opentelemetry::global::get_text_map_propagator(|p| p.inject_context(&span.context(), &mut injected));
        let mut out: Vec<(String, String)> = headers.iter().filter(|(name, _)| !name.eq_ignore_ascii_case("traceparent")).cloned().collect();
        out.extend(injected.0.into_iter().filter(|(name, _)| name == "traceparent"));
        out
    }

    /// The current span's context as a `traceparent`: the request an event is fired in.
    pub struct SpanTraceContext;

    impl gateway::ports::TraceContext for SpanTraceContext {
        fn traceparent(&self) -> Option<String> {
            let context = tracing::Span::current().context();
            let span = context.span();
            let sc = span.span_context();
            sc.is_valid().then(|| format!("00-{}-{}-{:02x}", sc.trace_id(), sc.span_id(), sc.trace_flags().to_u8()))
        }
    }

    pub fn trace_context() -> Option<Box<dyn gateway::ports::TraceContext>> {
        Some(Box::new(SpanTraceContext))
    }
}

#[cfg(feature = "otel")]
pub use enabled::*;

#[cfg(not(feature = "otel"))]
mod disabled {
    pub fn set_parent_from_request(_span: &tracing::Span, _headers: &http::HeaderMap) {}

    pub fn continue_outgoing(_span: &tracing::Span, headers: &[(String, String)]) -> Vec<(String, String)> {
        headers.to_vec()
    }

    pub fn trace_context() -> Option<Box<dyn gateway::ports::TraceContext>> {
        None
    }
}

#[cfg(not(feature = "otel"))]
pub use disabled::*;
