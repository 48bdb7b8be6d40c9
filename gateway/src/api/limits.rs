//! Deposit limits: set with cool-off, list, the pre-deposit check, commit and cancel.

use rules::{Deposit, DepositBreach, DepositDecision, DepositLimit, LimitWindow};
use serde_json::{json, Value as Json};

use super::exclusions::check_skew;
use super::{busy, money, stored_json, transactions_held, User};
use crate::error::{ApiError, ApiResult};
use crate::input::Fields;
use crate::ports::Stmt;
use crate::{time, Ctx, Gateway, Reply, WRITE_ATTEMPTS};

/// Smallest limit a player can set: one major unit.
pub const MIN_LIMIT_CENTS: i64 = 100;

const HELD_MESSAGE: &str = "Deposits are temporarily unavailable on this account. Please contact support.";
const EXCLUDED_MESSAGE: &str = "Deposits are unavailable while a self-exclusion is active.";

struct StoredLimit {
    limit_id: String,
    window: LimitWindow,
    amount_cents: i64,
    currency: String,
    status: String,
    effective_from: i64,
    response: String,
}

/// The limit in force and any pending increase, for one window.
struct WindowLimits {
    in_force: Option<StoredLimit>,
    pending: Option<StoredLimit>,
}

/// The outcome of the deposit gate.
enum Gate {
    Allowed { would_remain_cents: Option<i64>, active: Vec<LimitWindow> },
    Held,
    Excluded,
    Breach(DepositBreach, String),
}

fn breach_message(b: &DepositBreach, amount: i64, currency: &str) -> String {
    let window = match b.window {
        LimitWindow::Daily => "daily",
        LimitWindow::Weekly => "weekly",
        LimitWindow::Monthly => "monthly",
    };
    let limit = money(b.limit_cents, currency);
    if amount > b.limit_cents {
        format!("This deposit of {} is larger than your {window} deposit limit of {limit}.", money(amount, currency))
    } else if b.max_allowed_now_cents == 0 {
        format!("You have reached your {window} deposit limit of {limit}. You can deposit again from {}.", time::format(b.next_reset_at))
    } else {
        format!(
            "This deposit of {} would exceed your {window} deposit limit of {limit}. You can deposit up to {} now, or the full amount from {}.",
            money(amount, currency),
            money(b.max_allowed_now_cents, currency),
            time::format(b.next_reset_at)
        )
    }
}

impl Gateway {
    async fn user_limits(&self, ctx: &Ctx<'_>, user_id: &str) -> ApiResult<Vec<(LimitWindow, WindowLimits)>> {
        let rows = self
            .store
            .query(
                "SELECT limit_id, limit_type, amount_cents, currency, status, effective_from, response FROM deposit_limits
                 WHERE tenant_id = ?1 AND external_user_id = ?2 AND status IN ('active', 'pending') ORDER BY effective_from, user_version",
                vec![ctx.caller.tenant_id.as_str().into(), user_id.into()],
            )
            .await?;
        let mut by_window: Vec<(LimitWindow, WindowLimits)> =
            LimitWindow::ALL.into_iter().map(|w| (w, WindowLimits { in_force: None, pending: None })).collect();
        for row in &rows {
            let limit = StoredLimit {
                limit_id: row.text(0)?,
                window: LimitWindow::parse(&row.text(1)?).ok_or_else(ApiError::internal)?,
                amount_cents: row.int(2)?,
                currency: row.text(3)?,
                status: row.text(4)?,
                effective_from: row.int(5)?,
                response: row.text(6)?,
            };
            let Some((_, slot)) = by_window.iter_mut().find(|(w, _)| *w == limit.window) else { continue };
            if limit.effective_from <= ctx.now {
                slot.in_force = Some(limit);
            } else if limit.status == "pending" {
                slot.pending = Some(limit);
            }
        }
        Ok(by_window)
    }

    async fn recent_deposits(&self, ctx: &Ctx<'_>, user_id: &str) -> ApiResult<Vec<Deposit>> {
        let longest = self.rules.window_seconds(LimitWindow::Monthly)?;
        let rows = self
            .store
            .query(
                "SELECT amount_cents, at FROM deposits WHERE tenant_id = ?1 AND external_user_id = ?2 AND at > ?3",
                vec![ctx.caller.tenant_id.as_str().into(), user_id.into(), (ctx.now - longest).into()],
            )
            .await?;
        rows.iter().map(|r| Ok(Deposit { amount_cents: r.int(0)?, at: r.int(1)? })).collect()
    }

    pub(crate) async fn set_limit(&self, ctx: &Ctx<'_>) -> ApiResult<Reply> {
        let mut f = Fields::from_body(ctx.body)?;
        let user_id = f.text("user_id");
        let type_text = f.text("limit_type");
        let amount = f.cents("amount_cents");
        let currency = f.currency("currency");
        let requested_at = f.timestamp("requested_at");
        let window = LimitWindow::parse(&type_text);
        if !type_text.is_empty() && window.is_none() {
            f.reject("unsupported_type", "limit_type must be limit_daily, limit_weekly or limit_monthly");
        }
        check_skew(&mut f, "requested_at", requested_at, ctx.now);
        f.finish()?;
        let window = window.ok_or_else(ApiError::internal)?;
        if amount < MIN_LIMIT_CENTS {
            return Err(ApiError::unprocessable("below_minimum", format!("a deposit limit must be at least {MIN_LIMIT_CENTS} minor units")));
        }
        for _ in 0..WRITE_ATTEMPTS {
            let user = self.require_user(ctx, &user_id).await?;
            let limits = self.user_limits(ctx, &user_id).await?;
            let Some((_, slot)) = limits.into_iter().find(|(w, _)| *w == window) else { return Err(ApiError::internal()) };
            let current = slot.in_force.as_ref();
            if let Some(c) = current.filter(|c| c.currency != currency) {
                return Err(ApiError::bad_request("currency_mismatch", format!("this limit is kept in {}", c.currency)));
            }
            let cooloff = self.rules.limit_cooloff(current.map(|c| c.amount_cents), amount)?;
            if let Some(p) = &slot.pending {
                if p.amount_cents == amount {
                    return Ok(Reply::ok(stored_json(&p.response)?));
                }
                if cooloff.is_increase || current.is_none() {
                    return Err(ApiError::conflict(
                        "pending_change_exists",
                        "an increase of this limit is pending; cancel it first or wait until it is effective",
                    ));
                }
            }
            if let Some(c) = current.filter(|c| c.amount_cents == amount && slot.pending.is_none()) {
                return Ok(Reply::ok(self.limit_response(
                    &c.limit_id,
                    &user_id,
                    window,
                    amount,
                    &currency,
                    Some(amount),
                    cooloff,
                    c.effective_from,
                    "active",
                )));
            }
            if let Some(reply) =
                self.write_limit(ctx, &user, window, amount, &currency, requested_at, current, slot.pending.as_ref(), cooloff).await?
            {
                return Ok(reply);
            }
        }
        Err(busy())
    }

    #[allow(clippy::too_many_arguments)]
    fn limit_response(
        &self,
        limit_id: &str,
        user_id: &str,
        window: LimitWindow,
        amount: i64,
        currency: &str,
        current: Option<i64>,
        cooloff: rules::Cooloff,
        effective_from: i64,
        status: &str,
    ) -> Json {
        json!({
            "limit_id": limit_id,
            "user_id": user_id,
            "limit_type": window.as_str(),
            "amount_cents": amount,
            "currency": currency,
            "current_limit_cents": current,
            "is_increase": cooloff.is_increase,
            "cooloff_seconds": cooloff.cooloff_seconds,
            "effective_from": time::format(effective_from),
            "status": status,
        })
    }

    /// Writes a new limit. A decrease is instant and also cancels a pending increase.
    #[allow(clippy::too_many_arguments)]
    async fn write_limit(
        &self,
        ctx: &Ctx<'_>,
        user: &User,
        window: LimitWindow,
        amount: i64,
        currency: &str,
        requested_at: i64,
        current: Option<&StoredLimit>,
        pending: Option<&StoredLimit>,
        cooloff: rules::Cooloff,
    ) -> ApiResult<Option<Reply>> {
        let limit_id = self.new_id("lim");
        let effective_from = requested_at.max(ctx.now) + cooloff.cooloff_seconds;
        let status = if cooloff.cooloff_seconds > 0 { "pending" } else { "active" };
        let response = self.limit_response(
            &limit_id,
            &user.external_user_id,
            window,
            amount,
            currency,
            current.map(|c| c.amount_cents),
            cooloff,
            effective_from,
            status,
        );
        let tenant = ctx.caller.tenant_id.as_str();
        let mut statements = vec![self.claim_user(ctx, user)];
        if let Some(p) = pending {
            statements.push(self.cancel_statement(&p.limit_id, ctx.now));
            statements.push(self.event(ctx.caller.environment, Some(tenant), "limit.cancelled", ctx.now, json!({
                "limit_id": p.limit_id, "user_id": user.external_user_id, "limit_type": window.as_str(), "amount_cents": p.amount_cents, "currency": p.currency,
            })));
        }
        statements.push(Stmt::new(
            "INSERT INTO deposit_limits (limit_id, tenant_id, external_user_id, limit_type, amount_cents, currency, status, effective_from, user_version, response, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
            vec![
                limit_id.as_str().into(),
                tenant.into(),
                user.external_user_id.as_str().into(),
                window.as_str().into(),
                amount.into(),
                currency.into(),
                status.into(),
                effective_from.into(),
                (user.version + 1).into(),
                response.to_string().into(),
                ctx.now.into(),
            ],
        ));
        let event = match current {
            None => Some("limit.created"),
            Some(c) if amount < c.amount_cents => Some("limit.decreased"),
            Some(_) => None,
        };
        if let Some(event) = event {
            statements.push(self.event(
                ctx.caller.environment,
                Some(tenant),
                event,
                ctx.now,
                json!({
                    "limit_id": limit_id,
                    "user_id": user.external_user_id,
                    "limit_type": window.as_str(),
                    "amount_cents": amount,
                    "currency": currency,
                    "previous_limit_cents": current.map(|c| c.amount_cents),
                    "effective_from": time::format(effective_from),
                }),
            ));
        }
        Ok(self.commit(statements).await?.then(|| Reply::created(response)))
    }

    fn cancel_statement(&self, limit_id: &str, now: i64) -> Stmt {
        Stmt::expect_one(
            "UPDATE deposit_limits SET status = 'cancelled', cancelled_at = ?2 WHERE limit_id = ?1 AND status = 'pending' AND effective_from > ?2",
            vec![limit_id.into(), now.into()],
        )
    }

    pub(crate) async fn list_limits(&self, ctx: &Ctx<'_>) -> ApiResult<Reply> {
        let user_id = ctx.query.required("user_id")?;
        self.require_user(ctx, user_id).await?;
        let deposits = self.recent_deposits(ctx, user_id).await?;
        let mut items = Vec::new();
        for (window, slot) in self.user_limits(ctx, user_id).await? {
            let Some(limit) = slot.in_force else { continue };
            let usage = self.rules.window_usage_at(ctx.now, window, &deposits)?;
            let pending = slot.pending.map(|p| json!({ "limit_id": p.limit_id, "amount_cents": p.amount_cents, "effective_from": time::format(p.effective_from), "status": "pending" }));
            items.push(json!({
                "limit_id": limit.limit_id,
                "limit_type": window.as_str(),
                "amount_cents": limit.amount_cents,
                "currency": limit.currency,
                "status": "active",
                "effective_from": time::format(limit.effective_from),
                "spent_cents": usage.spent_cents,
                "remaining_cents": (limit.amount_cents - usage.spent_cents).max(0),
                "next_reset_at": time::json_opt(usage.next_reset_at),
                "pending_change": pending,
            }));
        }
        Ok(Reply::ok(json!({ "user_id": user_id, "limits": items })))
    }

    /// Everything that stands between a player and a deposit: a sanctions
    /// hold, an active self-exclusion, then the rolling-window limits.
    async fn deposit_gate(&self, ctx: &Ctx<'_>, user: &User, amount: i64, currency: &str) -> ApiResult<Gate> {
        if transactions_held(&user.sanctions_status) {
            return Ok(Gate::Held);
        }
        if self.is_excluded(ctx, user).await? {
            return Ok(Gate::Excluded);
        }
        let mut limits = Vec::new();
        for (window, slot) in self.user_limits(ctx, &user.external_user_id).await? {
            if let Some(l) = slot.in_force {
                if l.currency != currency {
                    return Err(ApiError::bad_request("currency_mismatch", format!("the {} limit is kept in {}", window.as_str(), l.currency)));
                }
                limits.push(DepositLimit { window, amount_cents: l.amount_cents });
            }
        }
        let deposits = self.recent_deposits(ctx, &user.external_user_id).await?;
        Ok(match self.rules.check_deposit(ctx.now, &limits, &deposits, amount)? {
            DepositDecision::Allowed { would_remain_cents } => {
                Gate::Allowed { would_remain_cents, active: limits.iter().map(|l| l.window).collect() }
            }
            DepositDecision::Rejected(b) => Gate::Breach(b, breach_message(&b, amount, currency)),
        })
    }

    async fn record_breach(&self, ctx: &Ctx<'_>, user_id: &str, amount: i64, currency: &str, b: &DepositBreach) -> ApiResult<()> {
        let event = self.event(
            ctx.caller.environment,
            Some(&ctx.caller.tenant_id),
            "limit.breach_attempt",
            ctx.now,
            json!({
                "user_id": user_id,
                "limit_type": b.window.as_str(),
                "amount_cents": amount,
                "currency": currency,
                "limit_amount_cents": b.limit_cents,
                "already_spent_cents": b.already_spent_cents,
            }),
        );
        self.commit(vec![event]).await?;
        Ok(())
    }

    pub(crate) async fn check_limits(&self, ctx: &Ctx<'_>) -> ApiResult<Reply> {
        let mut f = Fields::from_body(ctx.body)?;
        let user_id = f.text("user_id");
        let amount = f.cents("amount_cents");
        let currency = f.currency("currency");
        f.finish()?;
        let user = self.require_user(ctx, &user_id).await?;
        Ok(Reply::ok(match self.deposit_gate(ctx, &user, amount, &currency).await? {
            Gate::Allowed { would_remain_cents, active } => json!({
                "allowed": true,
                "amount_cents": amount,
                "would_remain_cents": would_remain_cents,
                "active_limits": active.iter().map(|w| w.as_str()).collect::<Vec<_>>(),
            }),
            Gate::Held => json!({ "allowed": false, "reason": "account_under_review", "user_message": HELD_MESSAGE }),
            Gate::Excluded => json!({ "allowed": false, "reason": "self_excluded", "user_message": EXCLUDED_MESSAGE }),
            Gate::Breach(b, message) => {
                self.record_breach(ctx, &user_id, amount, &currency, &b).await?;
                json!({
                    "allowed": false,
                    "reason": "exceeds_limit",
                    "breached_limit_type": b.window.as_str(),
                    "limit_amount_cents": b.limit_cents,
                    "already_spent_cents": b.already_spent_cents,
                    "max_allowed_now_cents": b.max_allowed_now_cents,
                    "next_reset_at": time::format(b.next_reset_at),
                    "user_message": message,
                })
            }
        }))
    }

    /// Records a deposit, atomically against the limits: the write commits
    /// only if nothing else was written for the user since the check read.
    pub(crate) async fn commit_deposit(&self, ctx: &Ctx<'_>) -> ApiResult<Reply> {
        let mut f = Fields::from_body(ctx.body)?;
        let transaction_id = f.text("transaction_id");
        let user_id = f.text("user_id");
        let amount = f.cents("amount_cents");
        let currency = f.currency("currency");
        f.finish()?;
        let tenant = ctx.caller.tenant_id.as_str();
        for _ in 0..WRITE_ATTEMPTS {
            let existing = self
                .store
                .query(
                    "SELECT external_user_id, amount_cents, currency, response FROM deposits WHERE tenant_id = ?1 AND transaction_id = ?2",
                    vec![tenant.into(), transaction_id.as_str().into()],
                )
                .await?;
            if let Some(row) = existing.first() {
                if row.text(0)? == user_id && row.int(1)? == amount && row.text(2)? == currency {
                    return Ok(Reply::ok(stored_json(&row.text(3)?)?));
                }
                return Err(ApiError::conflict("transaction_conflict", "this transaction_id was already committed with different details"));
            }
            let user = self.require_user(ctx, &user_id).await?;
            match self.deposit_gate(ctx, &user, amount, &currency).await? {
                Gate::Allowed { .. } => {}
                Gate::Held => return Err(ApiError::unprocessable("account_under_review", HELD_MESSAGE)),
                Gate::Excluded => return Err(ApiError::unprocessable("self_excluded", EXCLUDED_MESSAGE)),
                Gate::Breach(b, message) => {
                    self.record_breach(ctx, &user_id, amount, &currency, &b).await?;
                    return Err(ApiError::unprocessable("exceeds_limit", message));
                }
            }
            let response = json!({
                "transaction_id": transaction_id,
                "user_id": user_id,
                "amount_cents": amount,
                "currency": currency,
                "status": "committed",
                "committed_at": time::format(ctx.now),
            });
            let statements = vec![
                self.claim_user(ctx, &user),
                Stmt::new(
                    "INSERT INTO deposits (tenant_id, transaction_id, external_user_id, amount_cents, currency, at, response) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                    vec![tenant.into(), transaction_id.as_str().into(), user_id.as_str().into(), amount.into(), currency.as_str().into(), ctx.now.into(), response.to_string().into()],
                ),
            ];
            if self.commit(statements).await? {
                return Ok(Reply::created(response));
            }
        }
        Err(busy())
    }

    pub(crate) async fn cancel_limit(&self, ctx: &Ctx<'_>, limit_id: &str) -> ApiResult<Reply> {
        let rows = self
            .store
            .query(
                "SELECT external_user_id, limit_type, amount_cents, currency, status, effective_from, cancelled_at FROM deposit_limits WHERE limit_id = ?1 AND tenant_id = ?2",
                vec![limit_id.into(), ctx.caller.tenant_id.as_str().into()],
            )
            .await?;
        let row = rows.first().ok_or_else(|| ApiError::not_found("limit_not_found", "no such limit for this tenant"))?;
        let (user_id, limit_type, amount, currency, status, effective_from) =
            (row.text(0)?, row.text(1)?, row.int(2)?, row.text(3)?, row.text(4)?, row.int(5)?);
        let reply = |cancelled_at: i64| {
            Reply::ok(
                json!({ "limit_id": limit_id, "user_id": user_id, "limit_type": limit_type, "status": "cancelled", "cancelled_at": time::format(cancelled_at) }),
            )
        };
        if status == "cancelled" {
            return Ok(reply(row.opt_int(6)?.unwrap_or(ctx.now)));
        }
        if status != "pending" || effective_from <= ctx.now {
            return Err(ApiError::conflict("not_pending", "only a pending increase can be cancelled; lower the limit instead"));
        }
        let statements = vec![
            self.cancel_statement(limit_id, ctx.now),
            self.event(
                ctx.caller.environment,
                Some(&ctx.caller.tenant_id),
                "limit.cancelled",
                ctx.now,
                json!({
                    "limit_id": limit_id, "user_id": user_id, "limit_type": limit_type, "amount_cents": amount, "currency": currency,
                }),
            ),
        ];
        if self.commit(statements).await? {
            Ok(reply(ctx.now))
        } else {
            Err(ApiError::conflict("not_pending", "the limit changed concurrently; read it again"))
        }
    }
}
