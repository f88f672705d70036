//! The offline Rain Man (spec §8): `/rank` over GET and POST as the hosted service accepts
//! it (query string, form body, Rack's precedence), the gem's JSON, and a
//! `400 Bad request: ...` for anything it cannot rank.

use dealer::rainman;
use reqwest::StatusCode;
use serde_json::Value;
use shared::eval::rain_man_rank_json;

const ROYAL: &str = r#"[{"rank":"A","suit":"spades"},{"rank":"K","suit":"spades"},{"rank":"Q","suit":"spades"},{"rank":"J","suit":"spades"},{"rank":"10","suit":"spades"},{"rank":"2","suit":"hearts"},{"rank":"3","suit":"clubs"}]"#;
const TWO_PAIR: &str = r#"[{"rank":"4","suit":"spades"},{"rank":"4","suit":"hearts"},{"rank":"9","suit":"clubs"},{"rank":"9","suit":"diamonds"},{"rank":"K","suit":"spades"}]"#;

struct Service {
    base: String,
    handle: actix_web::dev::ServerHandle,
}

async fn start() -> Service {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let server = rainman::serve(listener).unwrap();
    let handle = server.handle();
    tokio::spawn(server);
    Service { base, handle }
}

fn expected(cards: &str) -> Value {
    serde_json::to_value(rain_man_rank_json(cards).unwrap()).unwrap()
}

fn form(cards: &str) -> String {
    form_urlencoded::Serializer::new(String::new())
        .append_pair("cards", cards)
        .finish()
}

async fn answer(response: reqwest::Response) -> (StatusCode, String) {
    (response.status(), response.text().await.unwrap())
}

/// `POST url` with `cards` as a form body, as bots send it: the status and the body.
async fn post_form(client: &reqwest::Client, url: &str, cards: &str) -> (StatusCode, String) {
    let response = client
        .post(url)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(form(cards))
        .send()
        .await
        .unwrap();
    answer(response).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_and_post_answer_rain_mans_json() {
    let service = start().await;
    let client = reqwest::Client::new();
    let url = format!("{}/rank", service.base);
    for cards in [ROYAL, TWO_PAIR] {
        let get = client
            .get(format!("{url}?{}", form(cards)))
            .send()
            .await
            .unwrap();
        assert_eq!(
            get.headers()["content-type"].to_str().unwrap(),
            "application/json"
        );
        let (status, body) = answer(get).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(
            serde_json::from_str::<Value>(&body).unwrap(),
            expected(cards)
        );

        let (status, body) = post_form(&client, &url, cards).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(
            serde_json::from_str::<Value>(&body).unwrap(),
            expected(cards)
        );
    }
    // A POST with `cards` in the query string (Sinatra's params hold both), and with both:
    // the body's wins, as in Rack.
    let query_only = client
        .post(format!("{url}?{}", form(ROYAL)))
        .send()
        .await
        .unwrap();
    let (status, body) = answer(query_only).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap(),
        expected(ROYAL)
    );
    let both = client
        .post(format!("{url}?{}", form(ROYAL)))
        .body(form(TWO_PAIR))
        .send()
        .await
        .unwrap();
    let (_, body) = answer(both).await;
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap(),
        expected(TWO_PAIR)
    );
    let royal = expected(ROYAL);
    assert_eq!(royal["rank"], 8);
    assert_eq!(royal["value"], 14);
    service.handle.stop(true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_card_lists_get_a_bad_request_never_a_crash() {
    let service = start().await;
    let client = reqwest::Client::new();
    let url = format!("{}/rank", service.base);
    let four = r#"[{"rank":"A","suit":"spades"},{"rank":"K","suit":"spades"},{"rank":"Q","suit":"spades"},{"rank":"J","suit":"spades"}]"#;
    let one = r#"{"rank":"1","suit":"spades"}"#;
    let bad_rank = format!("[{one},{one},{one},{one},{one}]");
    let cases = [
        (Some(four), "Bad request: not enough cards"),
        (Some("[]"), "Bad request: not enough cards"),
        // Fewer than five entries is counted before they are read, as the hosted one does.
        (Some("[1,2]"), "Bad request: not enough cards"),
        (Some("not json"), "Bad request: cards must be"),
        (Some(bad_rank.as_str()), "Bad request: cards must be"),
        (Some(r#"{"rank":"A"}"#), "Bad request: cards must be"),
        (Some("\u{0}\u{ffff}"), "Bad request: cards must be"),
        (None, "Bad request: the cards parameter is missing"),
    ];
    for (cards, reason) in cases {
        let query = cards.map(form).unwrap_or_default();
        let get = answer(client.get(format!("{url}?{query}")).send().await.unwrap()).await;
        let post = answer(client.post(&url).body(query.clone()).send().await.unwrap()).await;
        for (status, body) in [get, post] {
            assert_eq!(status, StatusCode::BAD_REQUEST, "{cards:?}: {body}");
            assert!(body.starts_with(reason), "{cards:?}: {body}");
        }
    }
    // A JSON body is not a form: `cards` is missing, as for the hosted service.
    let json = client
        .post(&url)
        .header("content-type", "application/json")
        .body(format!(r#"{{"cards":{ROYAL}}}"#))
        .send()
        .await
        .unwrap();
    assert_eq!(json.status(), StatusCode::BAD_REQUEST);
    let oversized = client
        .post(&url)
        .body(vec![b'a'; rainman::BODY_LIMIT + 1])
        .send()
        .await
        .unwrap();
    assert_eq!(oversized.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let elsewhere = client
        .get(format!("{}/other", service.base))
        .send()
        .await
        .unwrap();
    assert_eq!(elsewhere.status(), StatusCode::NOT_FOUND);
    // Still serving after all of that.
    let fine = client
        .get(format!("{url}?{}", form(ROYAL)))
        .send()
        .await
        .unwrap();
    assert_eq!(fine.status(), StatusCode::OK);
    service.handle.stop(true).await;
}

/// A GET whose `cards` is in a form body, as `curl -XGET -d` and `HTTParty.get(url, body:)`
/// send it: Rack reads it, so the hosted service answers it, and so do we.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_get_with_a_form_body_is_read_as_rack_reads_it() {
    let service = start().await;
    let client = reqwest::Client::new();
    let url = format!("{}/rank", service.base);
    let get_body = |content_type: Option<&'static str>, query: Option<&str>, body: &str| {
        let url = match query {
            Some(cards) => format!("{url}?{}", form(cards)),
            None => url.clone(),
        };
        let mut request = client.get(url).body(form(body));
        if let Some(content_type) = content_type {
            request = request.header("content-type", content_type);
        }
        request.send()
    };
    let form_type = Some("application/x-www-form-urlencoded");
    let (status, body) = answer(get_body(form_type, None, ROYAL).await.unwrap()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap(),
        expected(ROYAL)
    );
    // The media type in any letter case, with parameters.
    let loud = Some("Application/X-WWW-Form-URLEncoded; charset=UTF-8");
    let (status, body) = answer(get_body(loud, None, TWO_PAIR).await.unwrap()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap(),
        expected(TWO_PAIR)
    );
    // Both: the body's wins, as `GET.merge(POST)` in Rack.
    let (status, body) = answer(get_body(form_type, Some(ROYAL), TWO_PAIR).await.unwrap()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap(),
        expected(TWO_PAIR)
    );
    // A form body without `cards` leaves the query string's.
    let other = client
        .get(format!("{url}?{}", form(ROYAL)))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("other=1")
        .send()
        .await
        .unwrap();
    let (status, body) = answer(other).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap(),
        expected(ROYAL)
    );
    // Rack reads a GET's body only when it is labelled a form (a POST's also unlabelled).
    for content_type in [None, Some("application/json"), Some("text/plain")] {
        let (status, body) = answer(get_body(content_type, None, ROYAL).await.unwrap()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{content_type:?}: {body}");
        assert_eq!(body, "Bad request: the cards parameter is missing");
    }
    let (status, body) = answer(get_body(None, Some(TWO_PAIR), ROYAL).await.unwrap()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap(),
        expected(TWO_PAIR)
    );
    service.handle.stop(true).await;
}

/// What the hosted service answers 200 and we used to refuse: long rank names, integer ranks,
/// a card given twice; and the order of `cards` and `cards_used` it answers with.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_gems_spellings_and_order_over_http() {
    let service = start().await;
    let client = reqwest::Client::new();
    let url = format!("{}/rank", service.base);
    let long_names = r#"[{"rank":"Ace","suit":"hearts"},{"rank":"King","suit":"hearts"},{"rank":"Queen","suit":"hearts"},{"rank":"Jack","suit":"hearts"},{"rank":10,"suit":"hearts"}]"#;
    let repeated = r#"[{"rank":"3","suit":"diamonds"},{"rank":"9","suit":"spades"},{"rank":"3","suit":"clubs"},{"rank":"A","suit":"hearts"},{"rank":"A","suit":"hearts"}]"#;
    let get = client
        .get(format!("{url}?{}", form(long_names)))
        .send()
        .await
        .unwrap();
    let (status, body) = answer(get).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let royal: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        (royal["rank"].as_u64(), royal["value"].as_u64()),
        (Some(8), Some(14))
    );
    assert_eq!(
        royal["cards_used"][0],
        serde_json::json!({"rank":"10","suit":"hearts"})
    );
    let post = client
        .post(&url)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(form(repeated))
        .send()
        .await
        .unwrap();
    let (status, body) = answer(post).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let two_pair: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(two_pair, expected(repeated));
    assert_eq!(
        (
            two_pair["rank"].as_u64(),
            two_pair["value"].as_u64(),
            two_pair["second_value"].as_u64()
        ),
        (Some(2), Some(14), Some(3))
    );
    // Sorted by value, the threes in the order given (diamonds first).
    let listed = |field: &str| -> Vec<String> {
        two_pair[field]
            .as_array()
            .unwrap()
            .iter()
            .map(|card| {
                format!(
                    "{}{}",
                    card["rank"].as_str().unwrap(),
                    card["suit"].as_str().unwrap()
                )
            })
            .collect()
    };
    assert_eq!(
        listed("cards"),
        ["3diamonds", "3clubs", "9spades", "Ahearts", "Ahearts"]
    );
    assert_eq!(
        listed("cards_used"),
        ["3diamonds", "3clubs", "9spades", "Ahearts", "Ahearts"]
    );
    // Other methods are not routes, as on Sinatra.
    let put = client.put(&url).body(form(ROYAL)).send().await.unwrap();
    assert_eq!(put.status(), StatusCode::NOT_FOUND);
    service.handle.stop(true).await;
}

/// The wheel (A-2-3-4-5) answered byte for byte as the hosted service answers it: worth 5,
/// `cards_used` in rank order with the ace last (the hand a bot's straight check reads), the
/// last ace given used when two are there; a wheel straight flush likewise.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_wheel_lists_its_ace_last_as_the_hosted_service_does() {
    let service = start().await;
    let client = reqwest::Client::new();
    let url = format!("{}/rank", service.base);
    let cases = [
        (
            r#"[{"rank":"5","suit":"spades"},{"rank":"4","suit":"hearts"},{"rank":"3","suit":"clubs"},{"rank":"2","suit":"diamonds"},{"rank":"A","suit":"clubs"},{"rank":"K","suit":"diamonds"},{"rank":"A","suit":"spades"}]"#,
            r#"{"rank":4,"value":5,"second_value":5,"kickers":[],"cards_used":[{"rank":"2","suit":"diamonds"},{"rank":"3","suit":"clubs"},{"rank":"4","suit":"hearts"},{"rank":"5","suit":"spades"},{"rank":"A","suit":"spades"}],"cards":[{"rank":"2","suit":"diamonds"},{"rank":"3","suit":"clubs"},{"rank":"4","suit":"hearts"},{"rank":"5","suit":"spades"},{"rank":"K","suit":"diamonds"},{"rank":"A","suit":"clubs"},{"rank":"A","suit":"spades"}]}"#,
        ),
        (
            r#"[{"rank":"A","suit":"hearts"},{"rank":"2","suit":"hearts"},{"rank":"3","suit":"hearts"},{"rank":"4","suit":"hearts"},{"rank":"5","suit":"hearts"}]"#,
            r#"{"rank":8,"value":5,"second_value":5,"kickers":[],"cards_used":[{"rank":"2","suit":"hearts"},{"rank":"3","suit":"hearts"},{"rank":"4","suit":"hearts"},{"rank":"5","suit":"hearts"},{"rank":"A","suit":"hearts"}],"cards":[{"rank":"2","suit":"hearts"},{"rank":"3","suit":"hearts"},{"rank":"4","suit":"hearts"},{"rank":"5","suit":"hearts"},{"rank":"A","suit":"hearts"}]}"#,
        ),
    ];
    for (cards, hosted) in cases {
        let (status, body) = post_form(&client, &url, cards).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body, hosted, "{cards}");
    }
    service.handle.stop(true).await;
}
