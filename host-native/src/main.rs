//! `compliance-gateway`: the server and the admin command line.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand, ValueEnum};
use gateway::auth::Environment;
use gateway::{Config, Gateway};
use host_native::rules_engine::ComponentRules;
use host_native::webhooks::{self, HttpSender, NotifyWaker};
use host_native::{default_rules_paths, open_store, redact, OsIds, SystemClock};
use std::time::Duration;
use tokio::sync::Notify;

#[derive(Parser)]
#[command(name = "compliance-gateway", version, about = "Compliance Gateway: sanctions, KYC, self-exclusion and deposit limits")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the HTTP server.
    Serve {
        #[arg(long, env = "GATEWAY_LISTEN", default_value = "127.0.0.1:8080")]
        listen: String,
        #[command(flatten)]
        store: StoreArgs,
        #[command(flatten)]
        rules: RulesArgs,
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
struct RulesArgs {
    /// Path of the rules component; defaults to the one built by `cargo run -p build-rules`.
    #[arg(long = "rules", env = "GATEWAY_RULES_COMPONENT")]
    rules: Option<PathBuf>,
}

#[derive(Clone, Copy, ValueEnum)]
enum EnvArg {
    Sandbox,
    Production,
}

fn load_rules(args: &RulesArgs) -> Result<ComponentRules, String> {
    let path = match &args.rules {
        Some(p) => p.clone(),
        None => default_rules_paths()
            .into_iter()
            .find(|p| p.exists())
            .ok_or("no rules component found; build it with `cargo run -p build-rules` or pass --rules PATH")?,
    };
    ComponentRules::load(&path).map_err(|e| e.to_string())
}

async fn build_gateway(store: &StoreArgs, rules: ComponentRules, notify: Arc<Notify>) -> Result<Gateway, String> {
    let backend = open_store(&store.database).await.map_err(|e| format!("cannot open {}: {e}", redact(&store.database)))?;
    let gateway = Gateway::new(backend, Box::new(rules), Box::new(SystemClock), Box::new(OsIds), Config::default())
        .with_webhooks(Box::new(HttpSender::new()?), Box::new(NotifyWaker(notify)));
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

/// The core for admin commands, which make no rules decisions.
async fn admin_gateway(store: &StoreArgs) -> Result<Gateway, String> {
    let backend = open_store(&store.database).await.map_err(|e| format!("cannot open {}: {e}", redact(&store.database)))?;
    let gateway = Gateway::new(backend, Box::new(gateway::ports::LibraryRules), Box::new(SystemClock), Box::new(OsIds), Config::default());
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

async fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Serve { listen, store, rules } => {
            let rules = load_rules(&rules)?;
            let identity = gateway::ports::Rules::identity(&rules);
            let notify = Arc::new(Notify::new());
            let gateway = Arc::new(build_gateway(&store, rules, notify.clone()).await?);
            tokio::spawn(webhooks::delivery_loop(gateway.clone(), notify, Duration::from_millis(500)));
            tokio::spawn(webhooks::scheduler_loop(gateway.clone(), Duration::from_secs(1)));
            let listener = tokio::net::TcpListener::bind(&listen).await.map_err(|e| format!("cannot listen on {listen}: {e}"))?;
            let address = listener.local_addr().map(|a| a.to_string()).unwrap_or(listen);
            eprintln!(
                "compliance-gateway listening on http://{address} (store {}, rules {} sha256 {})",
                redact(&store.database),
                identity.version,
                identity.component_sha256
            );
            host_native::server::serve(listener, gateway, shutdown_signal()).await;
            eprintln!("compliance-gateway stopped");
            Ok(())
        }
        Command::AdminKey { action: AdminKeyAction::Create { environment, store } } => {
            let gateway = admin_gateway(&store).await?;
            let key = gateway.create_admin_key(environment.into()).await.map_err(|e| format!("cannot create the key: {e}"))?;
            println!("{key}");
            Ok(())
        }
        Command::RegulatorImport { environment, file, store } => {
            let body = std::fs::read(&file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
            let gateway = admin_gateway(&store).await?;
            let report = gateway.import_regulator_file(environment.into(), &body).await.map_err(|e| format!("{}: {}", e.code, e.message))?;
            println!("{report}");
            Ok(())
        }
        Command::Rules { rules } => {
            let rules = load_rules(&rules)?;
            let identity = gateway::ports::Rules::identity(&rules);
            println!("version {}\nsha256 {}", identity.version, identity.component_sha256);
            Ok(())
        }
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
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("compliance-gateway: {e}");
            ExitCode::FAILURE
        }
    }
}
