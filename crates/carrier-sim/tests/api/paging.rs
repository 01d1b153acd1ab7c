//! Paging and filters.

use carrier_sim::NextPage;

use crate::*;

#[tokio::test]
async fn pages_follow_next_page_as_token_or_url() {
    for style in [NextPage::Token, NextPage::Url] {
        let mut config = config();
        config.next_page = style;
        let sim = Sim::start(config).await;
        sim.advance(60).await;
        let query = "/MAEU/v2/events?transportDocumentReference=586118841";
        let everything = sim.all(query).await;
        assert!(everything.len() > 20, "{}", everything.len());
        let mut collected = Vec::new();
        let (mut page, mut next) = sim.page(&format!("{query}&limit=7")).await;
        loop {
            assert!(page.len() <= 7);
            collected.extend(page);
            let Some(link) = next else { break };
            let path = match style {
                NextPage::Token => format!("{query}&limit=7&cursor={link}"),
                NextPage::Url => link,
            };
            (page, next) = sim.page(&path).await;
        }
        assert_eq!(collected, everything, "{style:?}");
    }
}

#[tokio::test]
async fn filters_and_with_each_other_and_or_within_one() {
    let sim = Sim::start(config()).await;
    sim.advance(60).await;
    let base = "/MAEU/v2/events?transportDocumentReference=586118841";
    let all = sim.all(base).await;
    let equipment = sim.all(&format!("{base}&eventType=EQUIPMENT")).await;
    assert!(!equipment.is_empty() && equipment.iter().all(|e| e["eventType"] == "EQUIPMENT"));
    let two = sim
        .all(&format!("{base}&eventType=EQUIPMENT,SHIPMENT"))
        .await;
    assert_eq!(
        two.len(),
        all.iter().filter(|e| e["eventType"] != "TRANSPORT").count()
    );
    let container = equipment[0]["equipmentReference"]
        .as_str()
        .expect("box")
        .to_owned();
    let one_box = sim
        .all(&format!("{base}&equipmentReference={container}"))
        .await;
    assert!(
        one_box
            .iter()
            .all(|e| e["equipmentReference"] == container.as_str())
    );
    let arrivals = sim
        .all(&format!(
            "{base}&eventType=TRANSPORT&transportEventTypeCode=ARRI"
        ))
        .await;
    assert!(
        arrivals
            .iter()
            .all(|e| e["transportEventTypeCode"] == "ARRI")
    );
    let deprecated = sim
        .all("/MAEU/v2/events?transportDocumentID=586118841")
        .await;
    assert_eq!(deprecated, all, "deprecated parameter names still work");
    let voyage = arrivals[0]["transportCall"]["exportVoyageNumber"]
        .as_str()
        .expect("voyage")
        .to_owned();
    let on_voyage = sim
        .all(&format!("{base}&carrierVoyageNumber={voyage}"))
        .await;
    assert!(
        !on_voyage.is_empty()
            && on_voyage
                .iter()
                .all(|e| e["transportCall"]["exportVoyageNumber"] == voyage.as_str())
    );
    assert!(sim.all(&format!("{base}&scheduleID=S1")).await.is_empty());
    let impossible = sim
        .all(&format!(
            "{base}&shipmentEventTypeCode=ISSU&equipmentEventTypeCode=LOAD"
        ))
        .await;
    assert!(
        impossible.is_empty(),
        "contradictory filters give an empty list"
    );
    let later = sim
        .all(&format!(
            "{base}&eventCreatedDateTime:gte=2026-06-15T00:00:00Z"
        ))
        .await;
    assert!(later.len() < all.len());
    assert!(later.iter().all(|e| {
        e["eventCreatedDateTime"]
            .as_str()
            .is_some_and(|t| t >= "2026-06-15")
    }));
    let by_date_desc = sim.all(&format!("{base}&sort=eventDateTime:DESC")).await;
    assert!(
        by_date_desc
            .windows(2)
            .all(|w| w[0]["eventDateTime"].as_str() >= w[1]["eventDateTime"].as_str())
    );
}
