-- A line's push (an Arrival Notice) names a bill of lading: the shipments of that bill and
-- line are found by this index, whatever their account.
CREATE INDEX shipments_scac_bill ON shipments (scac, bill_of_lading_number);
