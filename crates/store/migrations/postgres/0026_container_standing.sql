-- How a box stands is decided together (domain terminal::Standing): a box that has left
-- full is neither available nor held, and a box a hold in force blocks is not available.
-- The list filters' columns written before that rule are brought in line with it.
UPDATE containers SET available_for_pickup = false, has_holds = false
 WHERE current_status IN ('picked_up', 'delivered', 'empty_returned');
UPDATE containers SET available_for_pickup = false WHERE has_holds AND available_for_pickup;
UPDATE containers SET current_status = 'not_available'
 WHERE has_holds AND current_status = 'available';
