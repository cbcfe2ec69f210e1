## งบการเรียกของเครื่อง (api/budget.rs): ส่วนที่ใช้ไม่ได้ แจ้งครั้งเดียวตอนเริ่ม และเมื่อโปรแกรมอื่นถือช่องไว้หมดจนต้องส่งทีละรายการ

budget-off = { $path } ของงบการเรียกของเครื่อง { $why }: ทำงานต่อโดยไม่ใช้งบร่วม ส่งพร้อมกันไม่เกิน { $n } รายการ
budget-part = { $path } ของงบการเรียกของเครื่อง { $why }: ใช้ได้ { $usable } จาก { $slots } ช่อง
budget-why-not-folder = ไม่ใช่โฟลเดอร์จริง ({ $kind })
budget-why-not-file = ไม่ใช่ไฟล์ธรรมดา ({ $kind })
budget-why-owner = เป็นของผู้ใช้อื่น (uid { $uid })
budget-why-unsticky = ผู้ใช้อื่นเขียนได้โดยไม่มี sticky bit (สิทธิ์ { $mode })
budget-why-writable = ผู้ใช้อื่นเขียนได้ (สิทธิ์ { $mode })
budget-why-links = มี { $n } ชื่อ (ฮาร์ดลิงก์)
budget-why-io = ใช้ไม่ได้: { $error }
budget-kind-file = เป็นไฟล์ธรรมดา
budget-kind-directory = เป็นโฟลเดอร์
budget-kind-link = เป็นลิงก์สัญลักษณ์
budget-kind-fifo = เป็น FIFO
budget-kind-socket = เป็นซ็อกเก็ต
budget-kind-device = เป็นอุปกรณ์
log-budget-check = ตรวจงบการเรียกของเครื่อง
status-budget-busy = งบการเรียกของเครื่องเต็ม: club-admin อื่นถือทุกช่องไว้ ส่งทีละ 1 รายการ
status-bulk-budget-busy = งบของเครื่องเต็ม: ส่งทีละ 1 รายการ
