# Tables as they come from real logs: columns eom does not read may hold anything (labels, ROS
# frame ids, JSON strings, nested objects); RFC 4180 quoted fields read as their content; the
# columns eom reads must be numbers; what is passed through is copied as the input wrote it.
set(rows tests/data/rows)

foreach(format IN ITEMS csv json ndjson)
  eom_cli_test(NAME tables-text-columns-ignored-${format}
               ARGS id robots/planar_2r.urdf ${rows}/planar_2r_labels.${format}
               STDOUT tests/data/planar_2r_small.tau.csv COMPARE numeric)
endforeach()
# quoted numbers are numbers, also when passed through
eom_cli_test(NAME tables-quoted-numbers-kept
             ARGS id robots/planar_2r.urdf ${rows}/planar_2r_labels.csv --keep q.joint1,v.joint2
             STDOUT_REGEX "^t,q.joint1,v.joint2,tau.joint1,tau.joint2\n0,1,-1.2049278000178352,")
# the record with a line end inside quotes counts two lines: the next record is line 5
eom_cli_test(NAME tables-text-in-a-column-read
             ARGS id robots/planar_2r.urdf ${rows}/planar_2r_text_in_q.csv
             RC 2 STDERR_REGEX "^eom id: error: ${rows}/planar_2r_text_in_q.csv:4:31: column q.joint2: 'n/a' is not a number\n$")
eom_cli_test(NAME tables-keep-input-text
             ARGS id robots/planar_2r.urdf ${rows}/planar_2r_labels.csv --keep-input
             STDOUT_REGEX "^t,label,q.joint1,q.joint2,v.joint1,v.joint2,a.joint1,a.joint2,frame_id,note,tau.joint1,tau.joint2\n0,\"walk, phase 0\",1,0.8775825618903728,0,-1.2049278000178352,-3.553057584392169,-5.543291337697598,base_link,\"say \"\"hi\"\"\",")
# nested objects are flattened: a JSON array passed through is its JSON text, null an empty field
eom_cli_test(NAME tables-keep-text-json
             ARGS id robots/planar_2r.urdf ${rows}/planar_2r_labels.json --keep header.frame_id,header.stamp.nsecs,ok
             STDOUT_REGEX "^t,header.frame_id,header.stamp.nsecs,ok,tau.joint1,tau.joint2\n0,base_link,\"\\[1,2\\]\",,")
eom_cli_test(NAME tables-convert-text
             ARGS convert ${rows}/planar_2r_labels.ndjson -
             STDOUT_REGEX "^t,label,q.joint1,q.joint2,v.joint1,v.joint2,a.joint1,a.joint2,header.frame_id,header.stamp.secs,header.stamp.nsecs,header.odd,ok\n0,\"walk, phase 0\",1,0.8775825618903728,0,-1.2049278000178352,-3.553057584392169,-5.543291337697598,base_link,0,\"\\[1,2\\]\",\\]},\n")
eom_cli_test(NAME tables-convert-text-csv
             ARGS convert ${rows}/planar_2r_labels.csv -
             STDOUT_REGEX "^t,label,q.joint1,q.joint2,v.joint1,v.joint2,a.joint1,a.joint2,frame_id,note\n0,\"walk, phase 0\",1,0.8775825618903728,0,-1.2049278000178352,-3.553057584392169,-5.543291337697598,base_link,\"say \"\"hi\"\"\"\n")
eom_cli_test(NAME tables-fk-text-columns
             ARGS fk robots/planar_2r.urdf ${rows}/planar_2r_labels.json --frames link2
             STDOUT_REGEX "^t,link2.x,link2.y,link2.z,link2.qx,link2.qy,link2.qz,link2.qw\n0,")
# Python's csv.QUOTE_ALL (CRLF line ends, every field quoted)
eom_cli_test(NAME tables-quote-all-convert
             ARGS convert ${rows}/planar_2r_quote_all.csv -
             STDOUT trajectories/planar_2r_small.csv COMPARE numeric ATOL 0 RTOL 0)
