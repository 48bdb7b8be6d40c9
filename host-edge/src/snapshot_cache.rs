//! Pages of the daily 03:00 UTC exclusion snapshot in KV. A page never
//! changes once built, so a stale read cannot exist: KV may take a minute to
//! show a write elsewhere, and until then the page is built from D1, which
//! stays the authority for everything that can change.

use gateway::ports::PageCache;
use worker::kv::KvStore;

/// Pages outlive any snapshot that is still served (one a day), and expire
/// on their own.
const PAGE_TTL_SECONDS: u64 = 3 * 86_400;

pub struct KvPageCache {
    kv: KvStore,
}

impl KvPageCache {
    pub fn new(kv: KvStore) -> Self {
        KvPageCache { kv }
    }
}

#[async_trait::async_trait(?Send)]
impl PageCache for KvPageCache {
    async fn get(&self, key: &str) -> Option<String> {
        self.kv.get(key).text().await.ok().flatten()
    }

    async fn put(&self, key: &str, value: &str) {
        let put = match self.kv.put(key, value) {
            Ok(put) => put.expiration_ttl(PAGE_TTL_SECONDS),
            Err(e) => return worker::console_error!("snapshot page not cached: {e}"),
        };
        if let Err(e) = put.execute().await {
            worker::console_error!("snapshot page not cached: {e}");
        }
    }
}
