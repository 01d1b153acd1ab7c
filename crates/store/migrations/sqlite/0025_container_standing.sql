-- How a box stands is decided together (domain terminal::Standing): a box that has left
-- full is neither available nor held, and a box a hold in force blocks is not available.
-- The list filters' columns written before that rule are brought in line with it.
UPDATE containers SET available_for_pickup = 0, has_holds = 0
 WHERE current_status IN ('picked_up', 'delivered', 'empty_returned');
UPDATE containers SET available_for_pickup = 0 WHERE has_holds = 1 AND available_for_pickup = 1;
UPDATE containers SET current_status = 'not_available'
 WHERE has_holds = 1 AND current_status = 'available';
