# club-admin user interface, Thai (ภาษาไทย).
#
# Same keys and $placeholders as en/main.ftl (tests/i18n.rs checks). Thai has a single plural
# form in CLDR ("other"), so a select on a number needs only the *[other] variant.
# Short, everyday school wording: ชุมนุม for a club, คำขอ for a membership request.

## Help section titles (keymap Scope)

scope-global = ใช้ได้ทุกที่
scope-queue = คิวคำขอ
scope-club = ค้นหาชุมนุม
scope-log = บันทึกกิจกรรม

## Help texts of actions (keymap Action::info)

action-force-quit = ออกทันที จากทุกที่
action-suspend = พักโปรแกรมกลับไปที่เชลล์ (fg เพื่อกลับมา)
action-quit = ออกจากโปรแกรม
action-help = หน้าช่วยเหลือนี้
action-next-pane = ไปแผงถัดไป
action-prev-pane = ไปแผงก่อนหน้า
action-refresh = โหลดคิวจากเซิร์ฟเวอร์ใหม่
action-toggle-log = แสดงหรือซ่อนบันทึกกิจกรรม
action-command-line = บรรทัดคำสั่ง (:help ดูรายการคำสั่ง)
action-add-ids = เพิ่มรหัสคำขอเข้าชุมนุม
action-club-lookup = ค้นหาชุมนุม
action-sign-in = เข้าสู่ระบบ (วางโทเคน)
action-redraw = วาดหน้าจอใหม่
action-down = ลง
action-up = ขึ้น
action-top = แถวแรก
action-bottom = แถวสุดท้าย
action-page-down = เลื่อนลงหนึ่งหน้า
action-page-up = เลื่อนขึ้นหนึ่งหน้า
action-approve = อนุมัติ (แถวที่เลือกไว้ หรือแถวปัจจุบัน)
action-decline = ปฏิเสธ (แถวที่เลือกไว้ หรือแถวปัจจุบัน)
action-delete = ลบ (ถามยืนยันก่อน)
action-undo = ถอนการอนุมัติ/ปฏิเสธล่าสุดก่อนที่จะส่ง
action-mark = เลือกหรือยกเลิกการเลือกแถวนี้
action-mark-range = เลือกตั้งแต่แถวที่เลือกล่าสุดถึงแถวนี้
action-mark-all = เลือกทุกคำขอที่ตรงกับตัวกรอง (โหลดทุกหน้า)
action-clear-marks = ยกเลิกการเลือกทั้งหมด
action-filter = ตัวกรอง (status: club: year: หรือข้อความใดก็ได้)
action-clear-filter = ล้างตัวกรอง
action-sort = สลับการเรียง: ตามเซิร์ฟเวอร์ เก่าสุดก่อน ชุมนุม สถานะ
action-open = อ่านคำขอปัจจุบันใหม่ / โหลดข้อมูลชุมนุม
action-raise-level = ดึงข้อมูลละเอียดขึ้น
action-lower-level = ดึงข้อมูลน้อยลง
action-copy = คัดลอกรหัสไปที่คลิปบอร์ด (OSC 52)
action-new-contact = เพิ่มช่องทางติดต่อของชุมนุม
action-detail-down = เลื่อนช่องรายละเอียดลง
action-detail-up = เลื่อนช่องรายละเอียดขึ้น
action-history = ประวัติของทีม: ใครตัดสินคำขอใด เมื่อไร จากที่ใด

## Footer hints (ui/hints.rs, for the keymap's Keymap::hint_actions): short labels

hint-force-quit = ออกทันที
hint-suspend = พัก
hint-quit = ออก
# The detail pane's scroll keys, offered while its lines are hidden (ui::detail_hint).
hint-detail-more = อ่านต่อ ↓
hint-detail-back = กลับขึ้น ↑
hint-help = ช่วยเหลือ
hint-next-pane = สลับแผง
hint-prev-pane = แผงก่อน
hint-refresh = โหลดใหม่
hint-toggle-log = บันทึก
hint-command-line = คำสั่ง
hint-add-ids = เพิ่มรหัส
hint-club-lookup = ชุมนุม
hint-sign-in = เข้าสู่ระบบ
hint-redraw = วาดใหม่
hint-down = ลง
hint-up = ขึ้น
hint-top = บนสุด
hint-bottom = ล่างสุด
hint-page-down = หน้าถัดไป
hint-page-up = หน้าก่อน
hint-approve = อนุมัติ
hint-decline = ปฏิเสธ
hint-delete = ลบ
hint-undo = ถอน
hint-mark = เลือก
hint-mark-range = เลือกช่วง
hint-mark-all = เลือกทั้งหมด
hint-clear-marks = ล้างที่เลือก
hint-clear-filter = ล้างตัวกรอง
hint-filter = ตัวกรอง
hint-sort = เรียง
hint-open = โหลด
hint-raise-level = ละเอียดขึ้น
hint-lower-level = ย่อลง
hint-copy = คัดลอก
hint-new-contact = เพิ่มช่องทาง
hint-detail-down = รายละเอียดลง
hint-detail-up = รายละเอียดขึ้น
hint-history = ประวัติ

## Relative ages (ui::age, ui::time_left) and counts

age-now = เมื่อครู่
age-minutes = { $n } นาที
age-hours = { $n } ชม.
age-days = { $n } วัน
age-weeks = { $n } สัปดาห์
age-years = { $n } ปี
# "5 นาทีที่แล้ว", "3 วันที่แล้ว": $age is one of the age-* texts above.
age-ago = { $age }ที่แล้ว
age-updated-seconds = อัปเดตเมื่อ { $n } วินาทีที่แล้ว
age-updated = อัปเดตเมื่อ { $age }ที่แล้ว
# Time left until a token expires: "3 วัน 4 ชม.", "7 ชม. 59 นาที", "12 นาที".
age-left-days-hours = { $days } วัน { $hours } ชม.
age-left-hours-minutes = { $hours } ชม. { $minutes } นาที
age-left-minutes = { $minutes } นาที
age-left-seconds = { $seconds } วินาที
age-expired = หมดอายุแล้ว

club-members = สมาชิก { $n } คน

## The help's last line: the queue filter's terms
help-filter-terms = ตัวกรอง: status:pending club:robot year:2569 -คำที่ไม่เอา หรือข้อความใดก็ได้
help-dropped = ถ้าการเชื่อมต่อหลุด
help-dropped-hangup = เมื่อการเชื่อมต่อหลุด (SSH หลุด หรือปิดหน้าต่าง) การอนุมัติ/ปฏิเสธที่ยังรออยู่จะถูกส่งทันทีเหมือนหมดเวลารอแล้ว และรอคำตอบจากเซิร์ฟเวอร์ ทุกรายการมีบันทึก เพราะคุณกด a หรือ x แล้ว เวลารอมีไว้ให้ยกเลิก ไม่ใช่ให้ยืนยันซ้ำ
help-dropped-suspend = หลัง Ctrl-Z แล้ว fg การอนุมัติ/ปฏิเสธที่หมดเวลารอระหว่างนั้นจะรอให้คุณเลือก: s ส่งเลย, k รอต่อ, d ทิ้ง
help-markers = เครื่องหมายหน้าแถว
help-marker-marked = เลือกไว้ (Space)
help-marker-marked-error = เลือกไว้ และคำสั่งหรือการอ่านครั้งล่าสุดไม่สำเร็จ
help-marker-error = คำสั่งหรือการอ่านครั้งล่าสุดไม่สำเร็จ (ดูเหตุผลในช่องรายละเอียด)
help-marker-unknown = ยังไม่รู้ผล: คำตอบหายไป แถวนี้จะอ่านใหม่เองจนกว่าเซิร์ฟเวอร์จะบอก
help-marker-new = คำขอใหม่: เข้ามาหลังจากโหลดคิว (จนกว่าเคอร์เซอร์จะไปถึง)
help-marker-held-elsewhere = มีการตัดสินที่พักไว้ในอีกเซสชันหนึ่ง (serve-ssh): กด a หรือ x ที่นี่จะถามก่อน

## Hint bar of the narrow layout

hint-narrow-detail = รายละเอียด
hint-narrow-back = กลับ
hint-narrow-look-up = ค้นหา
# The terminal window's title while the dashboard runs (the terminal's own title comes back on exit).
title-pending = club-admin · รอพิจารณา { $n }
