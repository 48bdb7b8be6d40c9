//! `compliance-gateway`: the server and the admin command line.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand, ValueEnum};
use gateway::auth::Environment;
use gateway::lists::{self, ListEntry, ListFormat, ListSource};
use gateway::retention::RetentionPolicy;
use gateway::{Config, Gateway};
use host_native::list_refresh;
use host_native::rules_engine::ComponentRules;
use host_native::webhooks::{self, HttpSender, NotifyWaker};
use host_native::{open_decision_store, open_store, redact, DnsResolver, OsIds, SystemClock};
use std::time::Duration;
use tokio::sync::Notify;

#[derive(Parser)]
#[command(name = "compliance-gateway", version, about = "Compliance Gateway: sanctions, KYC, self-exclusion and deposit limits")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
// parsed once at start: the size of `Serve` costs nothing
#[allow(clippy::large_enum_variant)]
enum Command {
    /// Run the HTTP server.
    Serve {
        #[arg(long, env = "GATEWAY_LISTEN", default_value = "127.0.0.1:8080")]
        listen: String,
        #[command(flatten)]
        store: StoreArgs,
        #[command(flatten)]
        rules: RulesArgs,
        #[command(flatten)]
        secrets: SecretArgs,
        /// The sanctions hit threshold of the sandbox (0 to 1; default: the rules').
        #[arg(long, env = "GATEWAY_HIT_THRESHOLD_SANDBOX")]
        hit_threshold_sandbox: Option<f64>,
        /// The sanctions hit threshold of production (0 to 1; default: the rules').
        #[arg(long, env = "GATEWAY_HIT_THRESHOLD_PRODUCTION")]
        hit_threshold_production: Option<f64>,
        /// A sanctions list to refresh from a URL, ENVIRONMENT,FORMAT,URL[,SOURCE]
        /// (for ofac-csv, the folder holding sdn.csv and alt.csv); repeatable.
        #[arg(long = "list-url", env = "GATEWAY_LIST_URLS", value_delimiter = ';')]
        list_urls: Vec<String>,
        /// Hours between list refreshes.
        #[arg(long, env = "GATEWAY_LIST_REFRESH_HOURS", default_value_t = 24)]
        list_refresh_hours: u64,
        /// The list sources production must screen against, comma-separated
        /// (default: ofac-sdn,eu-fsf,un-consolidated,uk-sanctions); one missing
        /// or stale shows in readiness and the admin list view, and screening goes on.
        #[arg(long, env = "GATEWAY_REQUIRED_LISTS")]
        required_lists: Option<String>,
        /// Hours within which a required list must have been refreshed.
        #[arg(long, env = "GATEWAY_LIST_FRESHNESS_HOURS", default_value_t = 36)]
        list_freshness_hours: u64,
        /// Environments whose case decisions take a second person's approval,
        /// comma-separated (`sandbox,production`; empty for none).
        #[arg(long, env = "GATEWAY_FOUR_EYES", default_value = "production")]
        four_eyes: String,
        /// The log's format on standard output: `json` (one object a line),
        /// `text`, or `none`; JSON unless standard output is a terminal.
        #[arg(long, env = "GATEWAY_LOG_FORMAT", value_enum)]
        log_format: Option<LogFormat>,
        /// Also serve `GET /metrics` on this address, without a key (on the
        /// API's address it needs an admin key).
        #[arg(long, env = "GATEWAY_METRICS_LISTEN")]
        metrics_listen: Option<String>,
        /// Record no metrics (`/metrics` then shows none); for measuring what they cost.
        #[arg(long, env = "GATEWAY_NO_METRICS")]
        no_metrics: bool,
        /// A header holding the client address, set by a trusted proxy in front
        /// (e.g. X-Forwarded-For); its last address is the request's source.
        #[arg(long, env = "GATEWAY_TRUSTED_PROXY_HEADER")]
        trusted_proxy_header: Option<String>,
        /// A yente (OpenSanctions) API whose /match proposes candidates to
        /// production screening, beside the imported lists; its API key, if
        /// any, is read from GATEWAY_YENTE_API_KEY.
        #[arg(long, env = "GATEWAY_YENTE_URL")]
        yente_url: Option<String>,
        /// The yente dataset of sanctions-only screening (every tenant, unless
        /// it switches on PEP or adverse-media screening).
        #[arg(long, env = "GATEWAY_YENTE_DATASET", default_value = gateway::vendors::yente::SANCTIONS_DATASET)]
        yente_dataset: String,
        /// The yente dataset of tenants that screen for PEPs or adverse media
        /// too; its results are sorted by their topics.
        #[arg(long, env = "GATEWAY_YENTE_DATASET_ALL_TOPICS", default_value = gateway::vendors::yente::ALL_TOPICS_DATASET)]
        yente_dataset_all_topics: String,
        /// The Sumsub API that verifies production identities; enabled when
        /// GATEWAY_SUMSUB_APP_TOKEN, GATEWAY_SUMSUB_SECRET_KEY and
        /// GATEWAY_SUMSUB_WEBHOOK_SECRET are set. Its webhooks go to
        /// POST /v1/vendors/sumsub/webhook.
        #[arg(long, env = "GATEWAY_SUMSUB_URL", default_value = "https://api.sumsub.com")]
        sumsub_url: String,
        /// The Sumsub verification levels, repeated or comma-separated: `tier_N=LEVEL`
        /// names a tier's level; a bare LEVEL is the basic level of tier_1 and tier_2
        /// (an ID and a selfie). tier_3 and tier_4 are verified only at a level named
        /// for them: without one, their checks are refused (503 tier_not_verifiable).
        #[arg(long, env = "GATEWAY_SUMSUB_LEVEL", value_delimiter = ',', default_value = "basic-kyc-level")]
        sumsub_level: Vec<String>,
        /// The Sumsub level of tier_1 checks (and so on for tiers 2 to 4), as
        /// `--sumsub-level tier_1=LEVEL`: a GREEN approves no tier above its level's.
        #[arg(long, env = "GATEWAY_SUMSUB_LEVEL_TIER1")]
        sumsub_level_tier1: Option<String>,
        #[arg(long, env = "GATEWAY_SUMSUB_LEVEL_TIER2")]
        sumsub_level_tier2: Option<String>,
        #[arg(long, env = "GATEWAY_SUMSUB_LEVEL_TIER3")]
        sumsub_level_tier3: Option<String>,
        #[arg(long, env = "GATEWAY_SUMSUB_LEVEL_TIER4")]
        sumsub_level_tier4: Option<String>,
        #[command(flatten)]
        oidc: OidcArgs,
        /// Days every decision is kept, a player's included (default: a player's state-changing decisions until the player's erasure, the rest 400 days, the rules' retention).
        #[arg(long, env = "GATEWAY_DECISION_RETENTION_DAYS")]
        decision_retention_days: Option<i64>,
        /// Days finished webhook deliveries, their attempts and dispatched events are kept.
        #[arg(long, env = "GATEWAY_RETAIN_WEBHOOKS_DAYS", default_value_t = RetentionPolicy::default().webhook_days)]
        retain_webhooks_days: i64,
        /// Days committed deposits are kept (default: the longest window a limit rule reads, and a day).
        #[arg(long, env = "GATEWAY_RETAIN_DEPOSITS_DAYS")]
        retain_deposits_days: Option<i64>,
        /// Days every audit row is kept, a player's included (default: rows about a player until the player's erasure, the rest the longest record-keeping period of the jurisdiction profiles, five years).
        #[arg(long, env = "GATEWAY_RETAIN_AUDIT_DAYS")]
        retain_audit_days: Option<i64>,
        /// Days a user's records (AML events and pairs, deposits' keys, withdrawals) are kept, for every tenant
        /// (default: each tenant's jurisdiction profile's record-keeping period, five years).
        #[arg(long, env = "GATEWAY_RETAIN_AML_DAYS")]
        retain_aml_days: Option<i64>,
        /// Hours an Idempotency-Key's answer is kept.
        #[arg(long, env = "GATEWAY_RETAIN_IDEMPOTENCY_HOURS", default_value_t = RetentionPolicy::default().idempotency_hours)]
        retain_idempotency_hours: i64,
        /// A candidate rules component run beside the live one on every AML
        /// event: it changes nothing; where it decides otherwise, the
        /// disagreement is recorded (`GET /v1/admin/aml/shadow`).
        #[arg(long = "shadow-rules", env = "GATEWAY_SHADOW_RULES")]
        shadow_rules: Option<PathBuf>,
        /// Seconds a request's line and headers may take from its first byte
        /// (from the connection's opening, for its first request); 0 for no limit.
        #[arg(long, env = "GATEWAY_HEADER_TIMEOUT_SECS", default_value_t = host_native::server::DEFAULT_HEADER_TIMEOUT_SECS)]
        header_timeout_secs: u64,
        /// Seconds a whole request, body included, may take from its first
        /// byte: a late body is answered 408 and its connection closed; 0 for no limit.
        #[arg(long, env = "GATEWAY_BODY_TIMEOUT_SECS", default_value_t = host_native::server::DEFAULT_BODY_TIMEOUT_SECS)]
        body_timeout_secs: u64,
        /// Seconds a connection may stay with no request under way and no byte
        /// written (kept alive between requests, or an answer not read); 0 for no limit.
        #[arg(long, env = "GATEWAY_IDLE_TIMEOUT_SECS", default_value_t = host_native::server::DEFAULT_IDLE_TIMEOUT_SECS)]
        idle_timeout_secs: u64,
        /// Connections served at once; at the cap, new ones wait in the listen
        /// backlog until one closes (default: the descriptor limit less 128, at most 10,000).
        #[arg(long, env = "GATEWAY_MAX_CONNECTIONS")]
        max_connections: Option<usize>,
    },
    /// Manage admin keys of the compliance team.
    AdminKey {
        #[command(subcommand)]
        action: AdminKeyAction,
    },
    /// Import the regulator's comprehensive self-exclusion list: permanent
    /// exclusions shared with every tenant of the environment.
    RegulatorImport {
        #[arg(long, value_enum)]
        environment: EnvArg,
        /// A JSON file: {"entries": [{"email": "...", "phone": "...", "reference": "..."}]}
        file: PathBuf,
        #[command(flatten)]
        store: StoreArgs,
    },
    /// Print the version and SHA-256 of the rules component.
    Rules {
        #[command(flatten)]
        rules: RulesArgs,
    },
    /// Copy a running SQLite store to a file, consistently and online
    /// (SQLite's backup API); for Postgres use pg_dump (docs/operations.md).
    Backup {
        /// The new file; an existing one is never overwritten.
        #[arg(long)]
        out: PathBuf,
        #[command(flatten)]
        store: StoreArgs,
    },
    /// Audit the decision log.
    Decisions {
        #[command(subcommand)]
        action: DecisionsAction,
    },
    /// Manage the key that seals webhook secrets at rest.
    Secrets {
        #[command(subcommand)]
        action: SecretsAction,
    },
    /// Manage the sanctions lists screenings are made against.
    Lists {
        #[command(subcommand)]
        action: ListsAction,
    },
    /// The sandbox's stub identity vendor.
    Kyc {
        #[command(subcommand)]
        action: KycCliAction,
    },
    /// AML monitoring: backtests of a candidate rules component.
    Aml {
        #[command(subcommand)]
        action: AmlAction,
    },
    /// The compliance team's console accounts.
    ConsoleUser {
        #[command(subcommand)]
        action: ConsoleUserAction,
    },
    /// Reference exchange rates for AML monitoring.
    Rates {
        #[command(subcommand)]
        action: RatesAction,
    },
}

#[derive(Subcommand)]
enum RatesAction {
    /// Import a rates file (CSV: `date,currency,per_unit_of,rate`) as the
    /// environment's newest version, named by its SHA-256; audited.
    Import {
        #[arg(long, value_enum)]
        environment: EnvArg,
        /// the CSV file
        path: PathBuf,
        #[command(flatten)]
        store: StoreArgs,
    },
}

/// The team's identity provider (OpenID Connect): console people sign in
/// through it at /console/oidc/start, back at /console/oidc/callback.
#[derive(clap::Args)]
struct OidcArgs {
    /// The provider's issuer URL (its discovery document is ISSUER/.well-known/openid-configuration).
    #[arg(long, env = "GATEWAY_OIDC_ISSUER")]
    oidc_issuer: Option<String>,
    /// The client id registered at the provider, with the redirect URI https://HOST/console/oidc/callback.
    #[arg(long, env = "GATEWAY_OIDC_CLIENT_ID")]
    oidc_client_id: Option<String>,
    /// A file holding the client's secret.
    #[arg(long, env = "GATEWAY_OIDC_CLIENT_SECRET_FILE")]
    oidc_client_secret_file: Option<PathBuf>,
    /// An e-mail domain whose people may sign in (repeatable, or comma-separated); none: any.
    #[arg(long = "oidc-allowed-domain", env = "GATEWAY_OIDC_ALLOWED_DOMAIN", value_delimiter = ',')]
    oidc_allowed_domain: Vec<String>,
}

impl OidcArgs {
    fn config(self) -> Result<Option<gateway::people::oidc::OidcConfig>, String> {
        match (self.oidc_issuer, self.oidc_client_id, self.oidc_client_secret_file) {
            (None, None, None) if self.oidc_allowed_domain.is_empty() => Ok(None),
            (Some(issuer), Some(client_id), Some(file)) => {
                let secret = std::fs::read_to_string(&file).map_err(|e| format!("--oidc-client-secret-file {}: {e}", file.display()))?;
                gateway::people::oidc::OidcConfig::new(issuer, client_id, secret, &self.oidc_allowed_domain)
                    .map(Some)
                    .map_err(|e| format!("--oidc-issuer/--oidc-client-id/--oidc-client-secret-file: {e}"))
            }
            _ => Err("sign-on needs --oidc-issuer, --oidc-client-id and --oidc-client-secret-file together".into()),
        }
    }
}

#[derive(Subcommand)]
enum ConsoleUserAction {
    /// Create an account with a one-time password (to be changed at the first
    /// sign-in) and a TOTP secret (RFC 6238, base32). Prints
    /// {"user_id", "email", "role", "password", "totp_secret"}; audited.
    /// With --oidc-subject (and --oidc-issuer) the account signs in through
    /// the identity provider only, and no password or code is made.
    Create {
        #[arg(long)]
        email: String,
        #[arg(long, value_enum)]
        role: RoleArg,
        #[arg(long, value_enum)]
        environment: EnvArg,
        /// The identity provider's subject (`sub`) of the person.
        #[arg(long, requires = "oidc_issuer")]
        oidc_subject: Option<String>,
        /// The identity provider's issuer URL, as the server is given it.
        #[arg(long, env = "GATEWAY_OIDC_ISSUER")]
        oidc_issuer: Option<String>,
        #[command(flatten)]
        store: StoreArgs,
        #[command(flatten)]
        secrets: SecretArgs,
    },
    /// Disable an account at once; audited.
    Disable {
        #[arg(long)]
        email: String,
        #[arg(long, value_enum)]
        environment: EnvArg,
        #[command(flatten)]
        store: StoreArgs,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum RoleArg {
    Reviewer,
    Approver,
    Supervisor,
    Admin,
}

impl RoleArg {
    fn role(self) -> gateway::people::Role {
        match self {
            RoleArg::Reviewer => gateway::people::Role::Reviewer,
            RoleArg::Approver => gateway::people::Role::Approver,
            RoleArg::Supervisor => gateway::people::Role::Supervisor,
            RoleArg::Admin => gateway::people::Role::Admin,
        }
    }
}

#[derive(Subcommand)]
enum KycCliAction {
    /// Give the stub vendor's verdict on a sandbox check awaiting review:
    /// it moves through the rules (logged) and the change is audited as `cli`.
    /// Prints {"kyc_check_id", "status", "reason", "decision_id"}.
    Advance {
        kyc_check_id: String,
        #[arg(long = "to", value_enum)]
        to: Verdict,
        /// why, stored with the check and shown to the compliance team
        #[arg(long)]
        reason: Option<String>,
        #[command(flatten)]
        store: StoreArgs,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Verdict {
    Approved,
    Rejected,
}

#[derive(Subcommand)]
enum SecretsAction {
    /// Seal every sealed secret (webhook secrets, console TOTP secrets) under the
    /// current key: after a rotation, with the old key in --previous-secret-keys;
    /// then the old key can go. Prints each kind with its count.
    Reseal {
        #[command(flatten)]
        secrets: SecretArgs,
        #[command(flatten)]
        store: StoreArgs,
    },
}

#[derive(Subcommand)]
enum ListsAction {
    /// Import a list as the new version of its source, replacing the active
    /// version in one step; a file that does not read replaces nothing.
    Import {
        #[arg(long, value_enum)]
        environment: EnvArg,
        #[arg(long, value_enum)]
        format: FormatArg,
        /// the folder holding sdn.csv (and alt.csv) for ofac-csv; the file otherwise
        path: PathBuf,
        /// the source name (default: ofac-sdn, opensanctions or un-consolidated)
        #[arg(long)]
        source: Option<String>,
        #[command(flatten)]
        rules: RulesArgs,
        #[command(flatten)]
        store: StoreArgs,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum FormatArg {
    OfacCsv,
    OpensanctionsCsv,
    UnXml,
    EuFsfXml,
    UkSanctionsXml,
}

impl From<FormatArg> for ListFormat {
    fn from(f: FormatArg) -> Self {
        match f {
            FormatArg::OfacCsv => ListFormat::OfacCsv,
            FormatArg::OpensanctionsCsv => ListFormat::OpenSanctionsCsv,
            FormatArg::UnXml => ListFormat::UnXml,
            FormatArg::EuFsfXml => ListFormat::EuFsfXml,
            FormatArg::UkSanctionsXml => ListFormat::UkSanctionsXml,
        }
    }
}

/// Reads a list from disk in its format.
fn read_list(format: ListFormat, path: &std::path::Path) -> Result<Vec<ListEntry>, String> {
    let read = |p: &std::path::Path| std::fs::read(p).map_err(|e| format!("cannot read {}: {e}", p.display()));
    let entries = match format {
        ListFormat::OfacCsv => {
            let sdn = read(&path.join("sdn.csv"))?;
            let alt_path = path.join("alt.csv");
            let alt = if alt_path.exists() { Some(read(&alt_path)?) } else { None };
            lists::parse::ofac(&sdn, alt.as_deref())
        }
        single_file => single_file.read(&read(path)?),
    };
    entries.map_err(|e| format!("{} is not a valid {} list: {e}", path.display(), format.as_str()))
}

#[derive(Subcommand)]
enum AmlAction {
    /// Replay the stored AML events, in arrival order, through the live rules
    /// (the component in this binary) and a candidate, each over its own
    /// simulated buckets; print the alerts added and removed per typology.
    /// Writes nothing.
    Backtest {
        /// The candidate rules component.
        #[arg(long = "rules")]
        rules: PathBuf,
        /// Events received at or after this instant (ISO 8601).
        #[arg(long)]
        from: Option<String>,
        /// Events received before this instant (ISO 8601).
        #[arg(long)]
        to: Option<String>,
        /// One tenant's events only.
        #[arg(long)]
        tenant: Option<String>,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        store: StoreArgs,
    },
}

#[derive(Subcommand)]
enum DecisionsAction {
    /// Re-run a recorded decision's input through the current (or the given)
    /// rules component; prints `identical` and exits 0, or the differences and exits 1.
    Replay {
        decision_id: String,
        #[command(flatten)]
        rules: RulesArgs,
        #[command(flatten)]
        store: StoreArgs,
    },
}

#[derive(Subcommand)]
enum AdminKeyAction {
    /// Create an admin key and print it alone on stdout (shown once).
    Create {
        #[arg(long, value_enum)]
        environment: EnvArg,
        #[command(flatten)]
        store: StoreArgs,
    },
}

#[derive(clap::Args)]
struct StoreArgs {
    /// sqlite://PATH (default) or postgres://USER:PASSWORD@HOST:PORT/DB
    #[arg(long = "database", env = "GATEWAY_DATABASE_URL", default_value = "sqlite://gateway.db")]
    database: String,
}

#[derive(clap::Args)]
struct SecretArgs {
    /// The file holding the key that seals webhook secrets (default: beside
    /// the SQLite database, or gateway-secret.key); GATEWAY_SECRET_KEY (base64) overrides it.
    #[arg(long = "secret-key-file", env = "GATEWAY_SECRET_KEY_FILE")]
    secret_key_file: Option<PathBuf>,
    /// Keys of before a rotation (base64, comma-separated): they still open what they sealed.
    #[arg(long = "previous-secret-keys", env = "GATEWAY_PREVIOUS_SECRET_KEYS", value_delimiter = ',', hide_env_values = true)]
    previous_secret_keys: Vec<String>,
}

impl SecretArgs {
    fn keys(&self, database: &str) -> Result<gateway::sealing::SecretKeys, String> {
        let key = std::env::var("GATEWAY_SECRET_KEY").ok();
        host_native::load_secret_keys(database, key.as_deref(), self.secret_key_file.as_deref(), &self.previous_secret_keys)
    }
}

#[derive(clap::Args)]
struct RulesArgs {
    /// Path of a rules component; defaults to the audited component carried in this binary.
    #[arg(long = "rules", env = "GATEWAY_RULES_COMPONENT")]
    rules: Option<PathBuf>,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum LogFormat {
    Json,
    Text,
    /// no log at all (for measuring what the log costs)
    None,
}

/// What keeps the log and the traces going until the server stops.
struct Telemetry {
    _log: Option<host_native::log_writer::FlushGuard>,
    #[cfg(feature = "otel")]
    traces: Option<host_native::otel::Tracing>,
}

impl Telemetry {
    /// Sends the spans still buffered (the log's guard flushes when dropped).
    fn shutdown(&self) {
        #[cfg(feature = "otel")]
        if let Some(traces) = &self.traces {
            traces.shutdown();
        }
    }
}

/// The server's log on standard output, through `tracing`: JSON lines unless
/// asked for text or writing to a terminal. Lines are gathered and written in
/// batches by a thread of their own (`log_writer`; never dropped: a full
/// buffer makes the request wait), so a request pays for formatting its line,
/// not for a write or a thread's wake-up. With the `otel`
/// feature and `OTEL_EXPORTER_OTLP_ENDPOINT`, the gateway's spans are exported too.
fn start_telemetry(format: Option<LogFormat>) -> Result<Telemetry, String> {
    use std::io::IsTerminal;
    use tracing_subscriber::filter::LevelFilter;
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    use tracing_subscriber::{Layer, Registry};
    let format = format.unwrap_or(if std::io::stdout().is_terminal() { LogFormat::Text } else { LogFormat::Json });
    let mut layers: Vec<Box<dyn Layer<Registry> + Send + Sync>> = Vec::new();
    let mut guard = None;
    if format != LogFormat::None {
        let (writer, log_guard) = host_native::log_writer::batched(std::io::stdout()).map_err(|e| format!("starting the log's writer: {e}"))?;
        guard = Some(log_guard);
        let layer = tracing_subscriber::fmt::layer().with_writer(writer);
        layers.push(match format {
            LogFormat::Text => layer.with_ansi(std::io::stdout().is_terminal()).with_filter(LevelFilter::INFO).boxed(),
            _ => layer.json().flatten_event(true).with_current_span(false).with_span_list(false).with_filter(LevelFilter::INFO).boxed(),
        });
    }
    #[cfg(feature = "otel")]
    let traces = match host_native::otel::layer::<Registry>()? {
        Some((layer, traces)) => {
            let ours = tracing_subscriber::filter::Targets::new()
                .with_target("host_native", tracing::Level::DEBUG)
                .with_target("gateway", tracing::Level::DEBUG);
            layers.push(layer.with_filter(ours).boxed());
            Some(traces)
        }
        None => None,
    };
    if !layers.is_empty() {
        if let Err(e) = tracing_subscriber::registry().with(layers).try_init() {
            eprintln!("the log could not start: {e}");
        }
    }
    Ok(Telemetry {
        _log: guard,
        #[cfg(feature = "otel")]
        traces,
    })
}

#[derive(Clone, Copy, ValueEnum)]
enum EnvArg {
    Sandbox,
    Production,
}

/// Sumsub, when its three secrets are in the environment (all or none).
fn sumsub_config(base_url: String, levels: gateway::vendors::sumsub::TierLevels) -> Result<Option<gateway::vendors::sumsub::SumsubConfig>, String> {
    let secret = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    match (secret("GATEWAY_SUMSUB_APP_TOKEN"), secret("GATEWAY_SUMSUB_SECRET_KEY"), secret("GATEWAY_SUMSUB_WEBHOOK_SECRET")) {
        (Some(app_token), Some(secret_key), Some(webhook_secret)) => {
            Ok(Some(gateway::vendors::sumsub::SumsubConfig { base_url, app_token, secret_key, webhook_secret, levels }))
        }
        (None, None, None) => Ok(None),
        _ => Err("Sumsub needs GATEWAY_SUMSUB_APP_TOKEN, GATEWAY_SUMSUB_SECRET_KEY and GATEWAY_SUMSUB_WEBHOOK_SECRET together".into()),
    }
}

fn load_rules(args: &RulesArgs) -> Result<ComponentRules, String> {
    match &args.rules {
        Some(path) => ComponentRules::load(path).map_err(|e| e.to_string()),
        None => ComponentRules::embedded().map_err(|e| e.to_string()),
    }
}

async fn build_gateway(store: &StoreArgs, rules: ComponentRules, notify: Arc<Notify>, config: Config) -> Result<Gateway, String> {
    let backend = open_store(&store.database).await.map_err(|e| format!("cannot open {}: {e}", redact(&store.database)))?;
    let mut gateway = Gateway::new(backend, Box::new(rules), Box::new(SystemClock), Box::new(OsIds), config)
        .with_webhooks(Box::new(HttpSender::new()?), Box::new(NotifyWaker(notify)))
        .with_resolver(Box::new(DnsResolver))
        .with_timer(Box::new(host_native::TokioTimer))
        .with_vendor_http(Box::new(webhooks::VendorClient::new()?));
    if let Some(trace_context) = host_native::otel::trace_context() {
        gateway = gateway.with_trace_context(trace_context);
    }
    if let Some(log) = open_decision_store(&store.database).map_err(|e| format!("cannot open {}: {e}", redact(&store.database)))? {
        gateway = gateway.with_decision_store(log);
    }
    let shared = host_native::open_shared_rate_limit(&store.database).await.map_err(|e| format!("cannot open {}: {e}", redact(&store.database)))?;
    if let Some(limiter) = shared {
        gateway = gateway.with_rate_limiter(limiter);
    }
    gateway.migrate().await.map_err(|e| format!("migration failed: {e}"))?;
    Ok(gateway)
}

impl From<EnvArg> for Environment {
    fn from(e: EnvArg) -> Self {
        match e {
            EnvArg::Sandbox => Environment::Sandbox,
            EnvArg::Production => Environment::Production,
        }
    }
}

/// The core for admin commands: any decision they make is the audited
/// component's, logged with its SHA-256, as a server's would be.
async fn admin_gateway(store: &StoreArgs) -> Result<Gateway, String> {
    admin_gateway_with(store, Config::default()).await
}

async fn admin_gateway_with(store: &StoreArgs, config: Config) -> Result<Gateway, String> {
    let rules = ComponentRules::embedded().map_err(|e| e.to_string())?;
    let backend = open_store(&store.database).await.map_err(|e| format!("cannot open {}: {e}", redact(&store.database)))?;
    let gateway = Gateway::new(backend, Box::new(rules), Box::new(SystemClock), Box::new(OsIds), config);
    gateway.migrate().await.map_err(|e| format!("migration failed: {e}"))?;
    Ok(gateway)
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
}

async fn run(cli: Cli) -> Result<ExitCode, String> {
    match cli.command {
        Command::Rates { action: RatesAction::Import { environment, path, store } } => {
            let csv = std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let gateway = admin_gateway(&store).await?;
            let imported = gateway.import_rates_from_cli(environment.into(), &csv).await.map_err(|e| format!("{}: {}", e.code, e.message))?;
            println!("{}", serde_json::to_string(&imported).map_err(|e| e.to_string())?);
            Ok(ExitCode::SUCCESS)
        }
        Command::Aml { action: AmlAction::Backtest { rules, from, to, tenant, json, store } } => {
            aml_backtest(&rules, from.as_deref(), to.as_deref(), tenant, json, &store).await.map(|()| ExitCode::SUCCESS)
        }
        Command::Backup { out, store } => {
            let source = host_native::sqlite_file(&store.database).map_err(|e| e.to_string())?.ok_or_else(|| {
                format!("{} is not a SQLite file; back up Postgres with pg_dump or its PITR (docs/operations.md)", redact(&store.database))
            })?;
            let report = host_native::backup::sqlite_backup(&source, &out)?;
            let key = host_native::key_file_beside(source.display());
            println!("backed up {} to {} ({} pages, {} bytes)", source.display(), out.display(), report.pages, report.bytes);
            if key.exists() {
                eprintln!("the webhook secrets in it are sealed with {}: keep that key too, apart from the backup", key.display());
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Decisions { action: DecisionsAction::Replay { decision_id, rules, store } } => {
            Ok(match replay(&decision_id, &rules, &store).await {
                Ok(true) => ExitCode::SUCCESS,
                Ok(false) => ExitCode::from(1),
                Err(e) => {
                    eprintln!("compliance-gateway: {e}");
                    ExitCode::from(2)
                }
            })
        }
        Command::Serve {
            listen,
            store,
            rules,
            decision_retention_days,
            retain_webhooks_days,
            retain_deposits_days,
            retain_audit_days,
            retain_aml_days,
            retain_idempotency_hours,
            shadow_rules,
            header_timeout_secs,
            body_timeout_secs,
            idle_timeout_secs,
            max_connections,
            hit_threshold_sandbox,
            hit_threshold_production,
            list_urls,
            list_refresh_hours,
            required_lists,
            list_freshness_hours,
            four_eyes,
            log_format,
            metrics_listen,
            no_metrics,
            trusted_proxy_header,
            secrets,
            yente_url,
            yente_dataset,
            yente_dataset_all_topics,
            sumsub_url,
            sumsub_level,
            sumsub_level_tier1,
            sumsub_level_tier2,
            sumsub_level_tier3,
            sumsub_level_tier4,
            oidc,
        } => {
            let telemetry = start_telemetry(log_format)?;
            let oidc = oidc.config()?;
            if !no_metrics {
                host_native::observability::install().map_err(|e| format!("the metrics recorder could not start: {e}"))?;
            }
            let secret_keys = secrets.keys(&store.database)?;
            let trusted_proxy_header = trusted_proxy_header
                .map(|h| http::HeaderName::from_bytes(h.as_bytes()).map_err(|_| format!("{h:?} is not a header name")))
                .transpose()?;
            let list_sources = list_urls.iter().map(|u| ListSource::parse(u)).collect::<Result<Vec<_>, _>>()?;
            let refresh_lists = !list_sources.is_empty();
            if max_connections == Some(0) {
                return Err("--max-connections must be at least 1".into());
            }
            // many connections need many descriptors: the soft limit is raised to the hard one
            host_native::server::raise_descriptor_limit();
            let limits = host_native::server::ConnectionLimits::from_secs(header_timeout_secs, body_timeout_secs, idle_timeout_secs, max_connections);
            if list_refresh_hours == 0 {
                return Err("--list-refresh-hours must be at least 1".into());
            }
            if decision_retention_days.is_some_and(|d| d < 1) {
                return Err("--decision-retention-days must be at least 1".into());
            }
            for (flag, value) in [
                ("--retain-webhooks-days", retain_webhooks_days),
                ("--retain-deposits-days", retain_deposits_days.unwrap_or(1)),
                ("--retain-audit-days", retain_audit_days.unwrap_or(1)),
                ("--retain-aml-days", retain_aml_days.unwrap_or(1)),
                ("--retain-idempotency-hours", retain_idempotency_hours),
            ] {
                if value < 1 {
                    return Err(format!("{flag} must be at least 1"));
                }
            }
            let retention = RetentionPolicy {
                webhook_days: retain_webhooks_days,
                deposit_days: retain_deposits_days,
                audit_days: retain_audit_days,
                aml_record_days: retain_aml_days,
                idempotency_hours: retain_idempotency_hours,
                ..RetentionPolicy::default()
            };
            for threshold in [hit_threshold_sandbox, hit_threshold_production].into_iter().flatten() {
                if !(0.0..=1.0).contains(&threshold) || threshold == 0.0 {
                    return Err(format!("a hit threshold must be above 0 and at most 1, not {threshold}"));
                }
            }
            let rules = load_rules(&rules)?;
            let identity = gateway::ports::Rules::identity(&rules);
            let notify = Arc::new(Notify::new());
            let config = Config {
                decision_retention_days,
                hit_threshold_sandbox,
                hit_threshold_production,
                secret_keys: Some(secret_keys),
                production_screening_vendor: yente_url.map(|base_url| gateway::vendors::yente::YenteConfig {
                    base_url,
                    dataset: yente_dataset,
                    extended_dataset: yente_dataset_all_topics,
                    api_key: std::env::var("GATEWAY_YENTE_API_KEY").ok().filter(|k| !k.is_empty()),
                }),
                production_identity_vendor: sumsub_config(
                    sumsub_url,
                    gateway::vendors::sumsub::TierLevels::configured(
                        &sumsub_level.join(","),
                        [sumsub_level_tier1, sumsub_level_tier2, sumsub_level_tier3, sumsub_level_tier4],
                    )?,
                )?,
                list_sources,
                list_refresh_seconds: Some(i64::try_from(list_refresh_hours).unwrap_or(i64::MAX / 7_200).saturating_mul(3_600)),
                required_lists: required_lists.as_deref().map(lists::parse_required_sources),
                list_freshness_seconds: Some(i64::try_from(list_freshness_hours).unwrap_or(i64::MAX / 7_200).saturating_mul(3_600)),
                four_eyes: gateway::FourEyes::parse(&four_eyes)?,
                retention,
                oidc,
                ..Config::default()
            };
            let mut gateway = build_gateway(&store, rules, notify.clone(), config).await?;
            if let Some(path) = &shadow_rules {
                let shadow = ComponentRules::load(path).map_err(|e| format!("shadow rules {}: {e}", path.display()))?;
                eprintln!("shadow rules sha256 {} beside the live ones on AML events", gateway::ports::Rules::identity(&shadow).component_sha256);
                gateway = gateway.with_shadow_rules(Box::new(shadow));
            }
            let gateway = Arc::new(gateway);
            tokio::spawn(webhooks::delivery_loop(gateway.clone(), notify, Duration::from_millis(500)));
            tokio::spawn(webhooks::scheduler_loop(gateway.clone(), Duration::from_secs(1)));
            tokio::spawn(webhooks::decision_log_loop(gateway.clone(), Duration::from_millis(200)));
            if refresh_lists {
                tokio::spawn(list_refresh::refresh_loop(gateway.clone()));
            }
            if let Some(address) = &metrics_listen {
                let listener = host_native::server::bind(address).await.map_err(|e| format!("cannot listen on {address} for metrics: {e}"))?;
                tokio::spawn(host_native::server::serve_metrics(listener, gateway.clone()));
            }
            let listener = host_native::server::bind(&listen).await.map_err(|e| format!("cannot listen on {listen}: {e}"))?;
            let address = listener.local_addr().map(|a| a.to_string()).unwrap_or(listen);
            eprintln!(
                "compliance-gateway listening on http://{address} (store {}, rules {} sha256 {})",
                redact(&store.database),
                identity.version,
                identity.component_sha256
            );
            host_native::server::serve_limited(listener, gateway.clone(), trusted_proxy_header, limits, shutdown_signal()).await;
            if let Err(e) = gateway.flush_decisions().await {
                eprintln!("writing the last decisions failed: {e}");
            }
            telemetry.shutdown();
            eprintln!("compliance-gateway stopped");
            Ok(ExitCode::SUCCESS)
        }
        Command::AdminKey { action: AdminKeyAction::Create { environment, store } } => {
            let gateway = admin_gateway(&store).await?;
            let key = gateway.create_admin_key(environment.into()).await.map_err(|e| format!("cannot create the key: {e}"))?;
            println!("{key}");
            Ok(ExitCode::SUCCESS)
        }
        Command::RegulatorImport { environment, file, store } => {
            let body = std::fs::read(&file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
            let gateway = admin_gateway(&store).await?;
            let report = gateway.import_regulator_file(environment.into(), &body).await.map_err(|e| format!("{}: {}", e.code, e.message))?;
            println!("{}", serde_json::to_string(&report).map_err(|e| e.to_string())?);
            Ok(ExitCode::SUCCESS)
        }
        Command::Lists { action: ListsAction::Import { environment, format, path, source, rules, store } } => {
            let format = ListFormat::from(format);
            let component = load_rules(&rules)?;
            let backend = open_store(&store.database).await.map_err(|e| format!("cannot open {}: {e}", redact(&store.database)))?;
            let gateway = Gateway::new(backend, Box::new(component), Box::new(SystemClock), Box::new(OsIds), Config::default());
            gateway.migrate().await.map_err(|e| format!("migration failed: {e}"))?;
            let source = source.unwrap_or_else(|| format.default_source().to_string());
            let entries = match read_list(format, &path) {
                Ok(entries) => entries,
                Err(e) => {
                    gateway::lists::audit_refused_import(&gateway, environment.into(), &source, "cli", "unreadable_list").await;
                    return Err(e);
                }
            };
            let started = std::time::Instant::now();
            let summary = gateway::lists::import(&gateway, environment.into(), &source, format, entries, "cli")
                .await
                .map_err(|e| format!("{}: {}", e.code, e.message))?;
            println!(
                "imported {} entries ({} names, {} new, changed or delisted) as {} version {} in {:.1} s{}",
                summary.entries,
                summary.names,
                summary.changed,
                summary.source,
                summary.version,
                started.elapsed().as_secs_f64(),
                summary.replaced.map(|r| format!(", replacing {r}")).unwrap_or_default()
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Kyc { action: KycCliAction::Advance { kyc_check_id, to, reason, store } } => {
            let gateway = admin_gateway(&store).await?;
            let reason = reason.map(|r| r.trim().to_string()).filter(|r| !r.is_empty());
            let outcome = gateway.advance_sandbox_check(&kyc_check_id, matches!(to, Verdict::Approved), reason.as_deref()).await;
            // a refusal is a decision too: its log is written before the answer
            gateway.flush_decisions().await.map_err(|e| format!("the decision log could not be written: {e}"))?;
            let advanced = outcome.map_err(|e| format!("{}: {}", e.code, e.message))?;
            println!("{}", serde_json::to_string(&advanced).map_err(|e| e.to_string())?);
            Ok(ExitCode::SUCCESS)
        }
        Command::ConsoleUser { action: ConsoleUserAction::Create { email, role, environment, oidc_subject, oidc_issuer, store, secrets } } => {
            // the TOTP secret is sealed under the host key, as webhook secrets are
            let keys = secrets.keys(&store.database)?;
            let oidc = oidc_issuer.map(|issuer| gateway::people::oidc::OidcConfig { issuer, ..Default::default() });
            let gateway = admin_gateway_with(&store, Config { secret_keys: Some(keys), oidc, ..Config::default() }).await?;
            let created = match &oidc_subject {
                Some(subject) => gateway.create_console_account_of_subject(environment.into(), &email, role.role(), subject).await,
                None => gateway.create_console_account(environment.into(), &email, role.role()).await.map(Into::into),
            }
            .map_err(|e| format!("{}: {}", e.code, e.message))?;
            println!("{}", serde_json::to_string(&created).map_err(|e| e.to_string())?);
            Ok(ExitCode::SUCCESS)
        }
        Command::ConsoleUser { action: ConsoleUserAction::Disable { email, environment, store } } => {
            let gateway = admin_gateway(&store).await?;
            let person = gateway.disable_console_account(environment.into(), &email).await.map_err(|e| format!("{}: {}", e.code, e.message))?;
            println!("{}", serde_json::json!({ "user_id": person, "email": email.trim().to_lowercase(), "disabled": true }));
            Ok(ExitCode::SUCCESS)
        }
        Command::Secrets { action: SecretsAction::Reseal { secrets, store } } => {
            let keys = secrets.keys(&store.database)?;
            let current = keys.current_id().to_string();
            let gateway = admin_gateway_with(&store, Config { secret_keys: Some(keys), ..Config::default() }).await?;
            let resealed = gateway.reseal_secrets().await?;
            println!("resealed under key {current}: {resealed}");
            Ok(ExitCode::SUCCESS)
        }
        Command::Rules { rules } => {
            let rules = load_rules(&rules)?;
            let identity = gateway::ports::Rules::identity(&rules);
            println!("version {}\nsha256 {}", identity.version, identity.component_sha256);
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Replays a recorded decision; `Ok(true)` when the decision is identical.
async fn aml_backtest(
    candidate: &std::path::Path,
    from: Option<&str>,
    to: Option<&str>,
    tenant: Option<String>,
    json: bool,
    store: &StoreArgs,
) -> Result<(), String> {
    let instant = |flag: &str, text: Option<&str>| -> Result<Option<i64>, String> {
        text.map(|t| gateway::time::parse(t).ok_or_else(|| format!("--{flag} must be an ISO 8601 instant such as 2026-01-31T00:00:00Z"))).transpose()
    };
    let scope = gateway::aml::backtest::Scope {
        tenant_id: tenant.unwrap_or_default(),
        from: instant("from", from)?.unwrap_or(0),
        to: instant("to", to)?.unwrap_or(gateway::ports::MAX_STORED_INTEGER),
    };
    let candidate = ComponentRules::load(candidate).map_err(|e| e.to_string())?;
    let live = ComponentRules::embedded().map_err(|e| e.to_string())?;
    let backend = open_store(&store.database).await.map_err(|e| format!("cannot open {}: {e}", redact(&store.database)))?;
    let started = std::time::Instant::now();
    let report =
        gateway::aml::backtest::backtest(backend.as_ref(), &live, &candidate, &scope).await.map_err(|e| format!("{}: {}", e.code, e.message))?;
    let seconds = started.elapsed().as_secs_f64();
    if json {
        println!("{}", serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?);
        return Ok(());
    }
    println!("live rules      {}", report.live_rules_sha256);
    println!("candidate rules {}", report.candidate_rules_sha256);
    println!("{} events of {} users in {seconds:.1} s; {} outcomes changed", report.events, report.users, report.outcomes_changed);
    println!("{:<22} {:>10} {:>10} {:>8} {:>8}", "typology", "live", "candidate", "added", "removed");
    for t in &report.typologies {
        println!("{:<22} {:>10} {:>10} {:>8} {:>8}", t.typology, t.live_alerts, t.candidate_alerts, t.added, t.removed);
    }
    if report.live_replay_mismatches > 0 {
        println!("warning: {} events' live replay differs from the alerts stored", report.live_replay_mismatches);
    }
    Ok(())
}

async fn replay(decision_id: &str, rules: &RulesArgs, store: &StoreArgs) -> Result<bool, String> {
    let component = load_rules(rules)?;
    let gateway = admin_gateway(store).await?;
    let recorded = gateway
        .load_decision(decision_id)
        .await
        .map_err(|e| format!("{}: {}", e.code, e.message))?
        .ok_or_else(|| format!("no decision {decision_id} in this database"))?;
    let report = gateway::decisions::replay_recorded(&component, &recorded).map_err(|e| e.to_string())?;
    let identity = gateway::ports::Rules::identity(&component);
    eprintln!(
        "decision {} ({}) recorded by rules {} sha256 {}; replayed with rules {} sha256 {}",
        recorded.decision_id,
        recorded.operation.as_str(),
        recorded.rules_version,
        recorded.rules_sha256,
        identity.version,
        identity.component_sha256
    );
    if report.differences.is_empty() {
        println!("identical");
        Ok(true)
    } else {
        println!("different");
        for line in report.differences {
            println!("{line}");
        }
        Ok(false)
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("compliance-gateway: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(cli)) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("compliance-gateway: {e}");
            ExitCode::FAILURE
        }
    }
}
