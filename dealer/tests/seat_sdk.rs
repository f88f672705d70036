//! The dealer's HTTP seats against the real player SDK server (spec §1): every action, keep-alive,
//! and both ways of authenticating that the SDK accepts.

use dealer::seat::{
    wait_until_up, CheckPolicy, HttpClient, HttpSettings, PlayerEndpoint, PlayerSeat, SeatFailure,
};
use player::{Player, RunningServer, ServerBuilder};
use shared::{Chips, GameState};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

#[derive(Default)]
struct Caller {
    showdowns: AtomicUsize,
}

impl Player for Caller {
    fn bet_request(&self, state: &GameState) -> Chips {
        state.call_amount()
    }
    fn showdown(&self, _state: &GameState) {
        self.showdowns.fetch_add(1, Ordering::SeqCst);
    }
    fn version(&self) -> String {
        "SDK caller ".into()
    }
}

fn start(player: Arc<Caller>, secret: Option<&str>) -> RunningServer {
    let mut builder = ServerBuilder::from_arc(player)
        .address(([127, 0, 0, 1], 0).into())
        .workers(1);
    if let Some(secret) = secret {
        builder = builder.auth_secret(secret);
    }
    builder.start().expect("the SDK server starts")
}

fn seat(client: &HttpClient, url: &str) -> PlayerSeat {
    PlayerSeat::from(client.seat(PlayerEndpoint::parse(url).expect("a valid URL")))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spec_1_every_action_against_the_sdk() {
    let caller = Arc::new(Caller::default());
    let server = start(Arc::clone(&caller), None);
    let client = HttpClient::new(HttpSettings::default()).unwrap();
    let seat = seat(&client, &server.url());
    let state = shared::testing_state();

    assert!(wait_until_up([&seat], CheckPolicy::default())
        .await
        .all_up());
    assert_eq!(seat.version().await.outcome, Ok("SDK caller ".into()));
    for _ in 0..5 {
        let reply = seat.bet_request(&state).await;
        assert_eq!(reply.outcome, Ok(state.call_amount()));
        assert_eq!(reply.status, Some(200));
        assert_eq!(seat.showdown(&state).await.outcome, Ok(()));
    }
    assert_eq!(caller.showdowns.load(Ordering::SeqCst), 5);
    server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sdk_accepts_basic_auth_from_the_url_and_bearer_tokens() {
    let server = start(Arc::new(Caller::default()), Some("s3cret"));
    let client = HttpClient::new(HttpSettings::default()).unwrap();
    let state = shared::testing_state();
    let url = server.url();

    let basic = seat(&client, &url.replacen("http://", "http://team:s3cret@", 1));
    assert_eq!(
        basic.bet_request(&state).await.outcome,
        Ok(state.call_amount())
    );
    let bearer = PlayerSeat::from(
        client.seat(
            PlayerEndpoint::parse(&url)
                .unwrap()
                .with_bearer_token("s3cret")
                .unwrap(),
        ),
    );
    assert_eq!(bearer.check().await.outcome, Ok(()));
    assert_eq!(
        bearer.bet_request(&state).await.outcome,
        Ok(state.call_amount())
    );

    let anonymous = seat(&client, &url);
    assert_eq!(
        anonymous.bet_request(&state).await.outcome,
        Err(SeatFailure::Status(401))
    );
    let wrong = seat(&client, &url.replacen("http://", "http://team:guess@", 1));
    assert_eq!(wrong.check().await.outcome, Err(SeatFailure::Status(401)));
    server.stop().await.unwrap();
}
