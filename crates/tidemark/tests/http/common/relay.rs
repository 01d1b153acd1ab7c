//! A TCP relay between the app and its PostgreSQL server, which the test stops, starts, or
//! arms to cut a connection just after it carried a `COMMIT` to the server.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tidemark_store::testing::TestDatabase;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinSet;

/// A relay from a loopback port to the PostgreSQL server.
pub struct Relay {
    pub port: u16,
    target: String,
    cut_at_commit: Arc<AtomicBool>,
    tasks: JoinSet<()>,
}

impl Relay {
    /// Puts a relay between `database`'s app and its server (the app connects through it).
    pub async fn between(database: &mut TestDatabase) -> Self {
        let server = host_port(&database.options.url);
        let mut relay = Self {
            port: 0,
            target: server.clone(),
            cut_at_commit: Arc::new(AtomicBool::new(false)),
            tasks: JoinSet::new(),
        };
        relay.open().await;
        database.options.url =
            database
                .options
                .url
                .replacen(&server, &format!("127.0.0.1:{}", relay.port), 1);
        relay
    }

    /// Listens (on the same port after the first time) and relays every connection.
    pub async fn open(&mut self) {
        let listener = TcpListener::bind(("127.0.0.1", self.port))
            .await
            .expect("the relay listens");
        self.port = listener.local_addr().expect("a port").port();
        let target = self.target.clone();
        let cut = Arc::clone(&self.cut_at_commit);
        self.tasks.spawn(async move {
            let mut links = JoinSet::new();
            while let Ok((client, _)) = listener.accept().await {
                let (target, cut) = (target.clone(), Arc::clone(&cut));
                links.spawn(async move {
                    if let Ok(server) = TcpStream::connect(&target).await {
                        link(client, server, &cut).await;
                    }
                });
            }
        });
    }

    /// The server goes away: the listener and every relayed connection are dropped.
    pub fn close(&mut self) {
        self.tasks.abort_all();
    }

    /// The next connection to carry a `COMMIT` is cut once the server has it, before its
    /// answer comes back: the client cannot know whether the commit happened.
    pub fn cut_after_next_commit(&self) {
        self.cut_at_commit.store(true, Ordering::SeqCst);
    }
}

/// The simple-protocol query `COMMIT`: `Q`, its length (4 + 7), the text and its NUL.
const COMMIT: &[u8] = b"Q\0\0\0\x0bCOMMIT\0";

/// Relays both ways until either side closes, or a `COMMIT` passes while armed: then the
/// client's side is closed, and the server's kept (its answers read and dropped) for a few
/// seconds, so that the server runs the `COMMIT` it has rather than abandon it to a reset.
async fn link(client: TcpStream, server: TcpStream, cut: &AtomicBool) {
    let (mut client_in, mut client_out) = client.into_split();
    let (mut server_in, mut server_out) = server.into_split();
    let upstream = async {
        let mut buffer = vec![0_u8; 64 * 1024];
        loop {
            let Ok(read) = client_in.read(&mut buffer).await else {
                return false;
            };
            let chunk = buffer.get(..read).unwrap_or_default();
            if read == 0 || server_out.write_all(chunk).await.is_err() {
                return false;
            }
            let commits = chunk.windows(COMMIT.len()).any(|w| w == COMMIT);
            if commits && cut.swap(false, Ordering::SeqCst) {
                let _ = server_out.flush().await;
                return true;
            }
        }
    };
    let downstream = tokio::io::copy(&mut server_in, &mut client_out);
    let cut_here = tokio::select! {
        cut_here = upstream => cut_here,
        _ = downstream => false,
    };
    if cut_here {
        drop((client_in, client_out));
        let mut nowhere = tokio::io::sink();
        let drain = tokio::io::copy(&mut server_in, &mut nowhere);
        let _ = tokio::time::timeout(std::time::Duration::from_secs(5), drain).await;
    }
}

/// `host:port` of a PostgreSQL URL (`postgres://user@host:port/db`).
fn host_port(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let rest = rest.split_once('@').map_or(rest, |(_, rest)| rest);
    rest.split(['/', '?']).next().unwrap_or(rest).to_owned()
}
